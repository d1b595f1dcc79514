export * from './errors.js'
export * from './email.js'
