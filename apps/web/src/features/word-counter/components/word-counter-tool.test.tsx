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
    expect(figure('readingTime')).toHaveTextContent('1 min')
    expect(figure('speakingTime')).toHaveTextContent('1 min')
    expect(screen.getByText('Flesch Reading Ease')).toBeInTheDocument()
    expect(screen.getByTestId('top-words')).toHaveTextContent('eight')
  })
})
