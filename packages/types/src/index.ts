export * from './errors.js'
export * from './email.js'
export * from './ip.js'
export * from './links.js'
