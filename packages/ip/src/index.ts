export { isPrivateIp, parseIp, type ParsedIp } from './ip-address.js'
export { clientKey } from './client-key.js'
export { parseAddressList, type AddressList } from './address-list.js'
export { embeddedIpv4, specialPurpose, type SpecialPurpose } from './special-purpose.js'
