import type { FastifyRequest } from 'fastify'
import cookie from '@fastify/cookie'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  AuthResponse,
  ChangePasswordBody,
  DeleteAccountBody,
  ErrorBody,
  LoginBody,
  MeResponse,
  RegisterBody,
  SaveAddressBody,
  SavedAddress,
  SavedAddressesResponse,
  SuccessResponse,
} from '@tempbox/types'
import { toPublicUser } from '../../services/accounts/user-fields.js'
import { INBOX_GUESSES, limitGuesses } from '../../plugins/guess-limit.js'
import { clearRefreshCookie, sendSession } from './refresh-cookie.js'
import sessionRoutes from './sessions.js'

/** Per IP (per account too: LOGIN_FAILURES_PER_ACCOUNT, in AuthService). Generous for people, tight for password guessing. */
const LOGIN_LIMIT = { max: 20, timeWindow: '15 minutes' }
const REGISTER_LIMIT = { max: 10, timeWindow: '1 hour' }
/** Each try costs an argon2 verify, and a stolen token must not buy unlimited guesses at the current password. */
const PASSWORD_LIMIT = { max: 10, timeWindow: '15 minutes' }

const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const auth = app.authService
  // The refresh cookie (Path=/api/auth) is this context's alone: its parse and set hooks run on these routes only.
  await app.register(cookie)
  // Saving an address answers 404 / 409 / 200 by whether it is live: the same guess as reading it, counted alike.
  const savesAddress = (request: FastifyRequest) => request.method === 'POST' && request.routeOptions.url?.endsWith('/auth/addresses') === true
  limitGuesses(app, {
    ...INBOX_GUESSES,
    appliesTo: savesAddress,
    isMiss: (request, reply, code) => savesAddress(request) && INBOX_GUESSES.isMiss(request, reply, code),
  })
  await app.register(sessionRoutes)

  app.post(
    '/auth/register',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create an account (password ≥ 6 characters) and sign in',
        body: RegisterBody,
        response: { 200: AuthResponse, 400: ErrorBody, 409: ErrorBody, 429: ErrorBody },
      },
      config: { rateLimit: REGISTER_LIMIT },
    },
    async (request, reply) => sendSession(reply, await auth.register(request.body)),
  )

  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in; answers 401 "Invalid email or password" for an unknown email, a wrong password or a throttled account alike',
        body: LoginBody,
        response: { 200: AuthResponse, 400: ErrorBody, 401: ErrorBody, 429: ErrorBody },
      },
      config: { rateLimit: LOGIN_LIMIT },
    },
    async (request, reply) => sendSession(reply, await auth.login(request.body)),
  )

  app.get(
    '/auth/me',
    {
      schema: { tags: ['auth'], summary: 'The signed-in account', security: [{ bearer: [] }], response: { 200: MeResponse, 401: ErrorBody } },
      preHandler: app.authenticate,
    },
    async (request) => ({ user: toPublicUser(request.currentUser!) }),
  )

  app.get(
    '/auth/addresses',
    {
      schema: {
        tags: ['auth'],
        summary: 'Unexpired temporary addresses generated while signed in to this account',
        security: [{ bearer: [] }],
        response: { 200: SavedAddressesResponse, 401: ErrorBody },
      },
      preHandler: app.authenticate,
    },
    async (request, reply) => reply.header('Cache-Control', 'no-store').send({ addresses: await auth.savedAddresses(request.currentUser!.id) }),
  )

  app.post(
    '/auth/addresses',
    {
      schema: {
        tags: ['auth'],
        summary: 'Save a live address to this account (the one in use when signing in); 409 when another account holds it',
        security: [{ bearer: [] }],
        body: SaveAddressBody,
        response: { 200: SavedAddress, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
      preHandler: app.authenticate,
    },
    async (request) => app.inboxService.saveToAccount(request.currentUser!.id, request.body.email),
  )

  app.delete(
    '/auth/account',
    {
      schema: {
        tags: ['auth'],
        summary: 'Delete the account with its saved addresses and their mail; asks for its password (403 when wrong)',
        security: [{ bearer: [] }],
        body: DeleteAccountBody,
        response: { 200: SuccessResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody },
      },
      config: { rateLimit: PASSWORD_LIMIT },
      // Before the body is checked: without a valid token the answer is 401 whatever was sent.
      onRequest: app.authenticate,
    },
    async (request, reply) => {
      const removed = await auth.deleteAccount(request.currentUser!, request.body)
      app.inboxService.forgetInboxes(removed)
      clearRefreshCookie(reply)
      return { success: true, message: 'Your account and all associated data has been deleted.' }
    },
  )

  app.post(
    '/auth/password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Change the password (current + new, ≥ 6 characters); signs out every session and starts a fresh one here',
        security: [{ bearer: [] }],
        body: ChangePasswordBody,
        response: { 200: AuthResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody },
      },
      config: { rateLimit: PASSWORD_LIMIT },
      preHandler: app.authenticate,
    },
    async (request, reply) => sendSession(reply, await auth.changePassword(request.currentUser!, request.body)),
  )

  app.post(
    '/auth/sign-out-everywhere',
    {
      schema: {
        tags: ['auth'],
        summary: 'Revoke every token of the account, this one included',
        security: [{ bearer: [] }],
        response: { 200: SuccessResponse, 401: ErrorBody },
      },
      preHandler: app.authenticate,
    },
    async (request, reply) => {
      await auth.signOutEverywhere(request.currentUser!.id)
      clearRefreshCookie(reply)
      return { success: true, message: 'You have been signed out on every device.' }
    },
  )
}

export default authRoutes
