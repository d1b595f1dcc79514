export { Tempbox } from './tempbox.js'
export { Inbox } from './inbox.js'
export { TempboxError, TempboxTimeoutError } from './errors.js'
export { verifyWebhookSignature, type VerifyWebhookOptions, type WebhookHeaders } from './webhook-signature.js'
export type {
  CodeResult,
  CodeWaitResponse,
  CreateInboxOptions,
  FoundLink,
  FullMessage,
  Since,
  TempboxOptions,
  WaitForCodeOptions,
  WaitForLinkOptions,
  WaitForMessageOptions,
} from './types.js'
