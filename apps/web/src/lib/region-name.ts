/** One Intl.DisplayNames per reader's language (the languages we offer): making one loads ICU's region names. */
const regionNames = new Map<string, Intl.DisplayNames | null>()

/** The name of a region (ISO 3166 code) in the reader's language; undefined when the browser can't say it. */
export function regionName(code: string, language: string): string | undefined {
  let names = regionNames.get(language)
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames([language], { type: 'region' })
    } catch {
      names = null
    }
    regionNames.set(language, names)
  }
  try {
    return names?.of(code)
  } catch {
    return undefined
  }
}
