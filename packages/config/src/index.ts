export { duration, intReader, onOff, type Env, type IntReader } from './env-readers.js'
export { DEFAULT_MAIL_DOMAINS, DEFAULT_MESSAGE_TEXT_MAX_CHARS, readMailDomains, readMessageTextMaxChars } from './shared-settings.js'
