import { AppError } from '../../errors.js'

/** The 404s of the inbox routes: one sentence each, the same wherever the miss is found (the spec names them). */
export function inboxNotFound(): AppError {
  return new AppError('inbox_not_found', 'This address does not exist or has expired. Generate a new one.')
}

export function messageNotFound(): AppError {
  return new AppError('message_not_found', 'This message does not exist. It may have been deleted.')
}

export function attachmentNotFound(): AppError {
  return new AppError('attachment_not_found', 'This attachment does not exist.')
}
