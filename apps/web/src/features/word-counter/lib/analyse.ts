import { readability, type Readability } from './readability'
import { textStats, type TextStats } from './text-stats'

export interface TextAnalysis {
  stats: TextStats
  readability: Readability
}

export function analyse(text: string): TextAnalysis {
  return { stats: textStats(text), readability: readability(text) }
}
