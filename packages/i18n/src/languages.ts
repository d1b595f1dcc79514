/** The 24 languages of the picker (spec §2), in display order. */
export const LANGUAGES = [
  { code: 'en', region: 'US', name: 'English', nativeName: 'English', flag: '🇺🇸', country: 'United States' },
  { code: 'ur', region: 'PK', name: 'Urdu', nativeName: 'اردو', flag: '🇵🇰', country: 'Pakistan' },
  { code: 'es', region: 'ES', name: 'Spanish', nativeName: 'Español', flag: '🇪🇸', country: 'Spain' },
  { code: 'fr', region: 'FR', name: 'French', nativeName: 'Français', flag: '🇫🇷', country: 'France' },
  { code: 'de', region: 'DE', name: 'German', nativeName: 'Deutsch', flag: '🇩🇪', country: 'Germany' },
  { code: 'it', region: 'IT', name: 'Italian', nativeName: 'Italiano', flag: '🇮🇹', country: 'Italy' },
  { code: 'pt', region: 'BR', name: 'Portuguese', nativeName: 'Português', flag: '🇧🇷', country: 'Brazil' },
  { code: 'ru', region: 'RU', name: 'Russian', nativeName: 'Русский', flag: '🇷🇺', country: 'Russia' },
  { code: 'zh', region: 'CN', name: 'Chinese', nativeName: '中文', flag: '🇨🇳', country: 'China' },
  { code: 'ja', region: 'JP', name: 'Japanese', nativeName: '日本語', flag: '🇯🇵', country: 'Japan' },
  { code: 'ko', region: 'KR', name: 'Korean', nativeName: '한국어', flag: '🇰🇷', country: 'South Korea' },
  { code: 'ar', region: 'SA', name: 'Arabic', nativeName: 'العربية', flag: '🇸🇦', country: 'Saudi Arabia' },
  { code: 'hi', region: 'IN', name: 'Hindi', nativeName: 'हिन्दी', flag: '🇮🇳', country: 'India' },
  { code: 'nl', region: 'NL', name: 'Dutch', nativeName: 'Nederlands', flag: '🇳🇱', country: 'Netherlands' },
  { code: 'sv', region: 'SE', name: 'Swedish', nativeName: 'Svenska', flag: '🇸🇪', country: 'Sweden' },
  { code: 'no', region: 'NO', name: 'Norwegian', nativeName: 'Norsk', flag: '🇳🇴', country: 'Norway' },
  { code: 'da', region: 'DK', name: 'Danish', nativeName: 'Dansk', flag: '🇩🇰', country: 'Denmark' },
  { code: 'pl', region: 'PL', name: 'Polish', nativeName: 'Polski', flag: '🇵🇱', country: 'Poland' },
  { code: 'tr', region: 'TR', name: 'Turkish', nativeName: 'Türkçe', flag: '🇹🇷', country: 'Turkey' },
  { code: 'el', region: 'GR', name: 'Greek', nativeName: 'Ελληνικά', flag: '🇬🇷', country: 'Greece' },
  { code: 'he', region: 'IL', name: 'Hebrew', nativeName: 'עברית', flag: '🇮🇱', country: 'Israel' },
  { code: 'th', region: 'TH', name: 'Thai', nativeName: 'ไทย', flag: '🇹🇭', country: 'Thailand' },
  { code: 'vi', region: 'VN', name: 'Vietnamese', nativeName: 'Tiếng Việt', flag: '🇻🇳', country: 'Vietnam' },
  { code: 'id', region: 'ID', name: 'Indonesian', nativeName: 'Bahasa Indonesia', flag: '🇮🇩', country: 'Indonesia' },
] as const

export type LanguageCode = (typeof LANGUAGES)[number]['code']
export const DEFAULT_LANGUAGE: LanguageCode = 'en'
/** Languages written right to left: the document switches to dir="rtl". */
export const RTL_LANGUAGES: readonly LanguageCode[] = ['ur', 'ar', 'he']
/** localStorage key of the chosen language. */
export const LANGUAGE_STORAGE_KEY = 'tempbox-language'

export function isLanguageCode(value: unknown): value is LanguageCode {
  return LANGUAGES.some((l) => l.code === value)
}
