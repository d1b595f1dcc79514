import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { AddressLifetime, ErrorBody, ExtendAddressBody, SetBurnBody } from '@tempbox/types'
import { AddressParams, addressErrors } from './schemas.js'

/** When an address ends: burning it early from the inbox, or keeping a saved one longer. */
const lifetimeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const lifetimes = app.addressLifetimes

  app.put(
    '/email/:address/burn',
    {
      schema: {
        tags: ['email'],
        summary: 'Make the address burn after use: deleted with its mail when a message is first marked read, or after N minutes',
        description:
          '`{"burnAfterRead": true}` deletes the address and its mail as soon as one of its messages is marked read; ' +
          '`{"burnAfterMinutes": 10}` deletes them that many minutes from now (less than 24 hours). `{}` turns burning off. ' +
          'Mail to a burned address is refused (550 5.1.1).',
        params: AddressParams,
        body: SetBurnBody,
        response: { 200: AddressLifetime, ...addressErrors },
      },
    },
    async (request) => lifetimes.setBurn(request.params.address, request.body),
  )

  app.put(
    '/email/:address/expiry',
    {
      schema: {
        tags: ['email'],
        summary: 'Keep a saved address longer (its signed-in owner only): `days` from its creation, up to SAVED_ADDRESS_MAX_DAYS',
        description: 'Needs the Bearer token of the account the address is saved to. Ends any burn the address had.',
        params: AddressParams,
        body: ExtendAddressBody,
        response: { 200: AddressLifetime, 401: ErrorBody, 403: ErrorBody, ...addressErrors },
      },
      config: { optionalSignIn: true },
    },
    async (request) => lifetimes.extend(request.params.address, request.userId ?? undefined, request.body.days),
  )
}

export default lifetimeRoutes
