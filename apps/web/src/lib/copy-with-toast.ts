import { toast } from '@tempbox/ui'

export interface CopyToastTexts {
  copied: string
  failedTitle: string
  failed: string
}

/** Copies text and tells the user how it went; the caller passes texts from its own namespace. */
export async function copyWithToast(text: string, texts: CopyToastTexts): Promise<void> {
  try {
    await navigator.clipboard.writeText(text)
    toast({ title: texts.copied, description: text })
  } catch {
    toast({ title: texts.failedTitle, description: texts.failed, variant: 'destructive' })
  }
}
