/**
 * Cache-Control of everything read out of an inbox (listings, messages, raw source, attachments, inline images):
 * a burned or released address must leave nothing behind in the browser's cache or any shared one.
 */
export const INBOX_CONTENT_CACHE = 'private, no-store'
