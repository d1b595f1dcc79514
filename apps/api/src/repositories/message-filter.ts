/** The search conditions and their SQL live in @tempbox/db (search/message-filter.ts), the only code that knows the engine. */
export type { MessageCondition } from '@tempbox/db'
