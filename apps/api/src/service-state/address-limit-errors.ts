import { AppError } from '../errors.js'

/** The 429 a client gets past the hourly limit, whichever limiter counts. */
export function hourlyLimitReached(maxPerHour: number): AppError {
  return new AppError('rate_limited', `You can create at most ${maxPerHour} addresses per hour. Please try again later.`)
}

/** The 429 a client gets with every active place taken, whichever limiter counts. */
export function activeLimitReached(maxActive: number): AppError {
  return new AppError('too_many_active_addresses', `You already have ${maxActive} active addresses. Release one you no longer need, or wait until one expires.`)
}
