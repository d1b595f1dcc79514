import '../../../lib/i18n'
import { fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { WordCounterTool } from './word-counter-tool'

const figure = (key: string) => within(document.querySelector(`[data-stat="${key}"]`) as HTMLElement).getByRole('definition')

describe('WordCounterTool', () => {
  it('starts at zero and counts as the text changes', () => {
    render(<WordCounterTool />)
    expect(figure('words')).toHaveTextContent('0')
    expect(screen.getByText('Type some text to see its readability figures.')).toBeInTheDocument()

    fireEvent.change(screen.getByLabelText('Your text'), { target: { value: 'One two three. Four five!\r\n\r\nSix seven eight?' } })
    expect(figure('words')).toHaveTextContent('8')
    expect(figure('sentences')).toHaveTextContent('3')
    expect(figure('paragraphs')).toHaveTextContent('2')
    // Eight words take seconds, not "1 min".
    expect(figure('readingTime')).toHaveTextContent('< 1 min')
    expect(figure('speakingTime')).toHaveTextContent('< 1 min')
    // Eight words are too few to score; the averages and frequent words are still shown.
    expect(screen.getByTestId('readability-unscored')).toHaveTextContent('This text is too short to score: reading-ease scores need at least 30 words.')
    expect(screen.queryByText('Flesch Reading Ease')).toBeNull()
    expect(screen.getByTestId('top-words')).toHaveTextContent('eight')

    fireEvent.change(screen.getByLabelText('Your text'), { target: { value: Array.from({ length: 8 }, () => 'Dr. Smith met Mr. Jones at 5 p.m. today.').join(' ') } })
    expect(figure('sentences')).toHaveTextContent('8')
    expect(screen.queryByTestId('readability-unscored')).toBeNull()
    expect(screen.getByText('Flesch Reading Ease')).toBeInTheDocument()

    fireEvent.change(screen.getByLabelText('Your text'), { target: { value: 'word '.repeat(201) } })
    expect(figure('readingTime')).toHaveTextContent(/^2 min$/)
    expect(figure('speakingTime')).toHaveTextContent(/^2 min$/)
  })

  it('says that a Chinese text gets no reading-ease score, and counts its words', () => {
    render(<WordCounterTool />)
    fireEvent.change(screen.getByLabelText('Your text'), { target: { value: '我们今天去北京大学。天气很好！' } })
    expect(figure('words')).toHaveTextContent('7')
    expect(figure('sentences')).toHaveTextContent('2')
    expect(screen.getByTestId('readability-unscored')).toHaveTextContent('Reading-ease scores are made for English')
  })
})
