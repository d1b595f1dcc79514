import { Type, type Static } from 'typebox'

/** Roles of spec §6: admin and owner both count as admin; anything else is a plain user. */
export const ROLES = ['user', 'admin', 'owner'] as const
export type Role = (typeof ROLES)[number]

export const PublicUser = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  username: Type.Union([Type.String(), Type.Null()]),
  role: Type.String({ description: 'user, admin or owner.' }),
  createdAt: Type.String({ description: 'ISO 8601.' }),
  authenticated: Type.Boolean(),
})
export type PublicUser = Static<typeof PublicUser>

// Rules (format, lengths) are checked by the service so every field gets a sentence a person reads.
export const RegisterBody = Type.Object({
  email: Type.String({ maxLength: 1000 }),
  password: Type.String({ maxLength: 1000 }),
  username: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
})
export type RegisterBody = Static<typeof RegisterBody>

export const LoginBody = Type.Object({
  email: Type.String({ maxLength: 1000 }),
  password: Type.String({ maxLength: 1000 }),
})
export type LoginBody = Static<typeof LoginBody>

/**
 * `token` is the short-lived access token (spec's auth_token); the refresh cookie, httpOnly and scoped to /api/auth,
 * renews it through POST /api/auth/refresh.
 */
export const AuthResponse = Type.Object({
  token: Type.String(),
  user: PublicUser,
  expiresAt: Type.Optional(Type.String({ description: 'ISO 8601: when `token` stops working (renew before or after).' })),
})
export type AuthResponse = Static<typeof AuthResponse>

/** Deleting the account asks for its password, so a borrowed session cannot. */
export const DeleteAccountBody = Type.Object({ password: Type.String({ maxLength: 1000 }) })
export type DeleteAccountBody = Static<typeof DeleteAccountBody>

export const MeResponse = Type.Object({ user: PublicUser })
export type MeResponse = Static<typeof MeResponse>

export const SuccessResponse = Type.Object({ success: Type.Boolean(), message: Type.Optional(Type.String()) })
export type SuccessResponse = Static<typeof SuccessResponse>

export const SavedAddress = Type.Object({
  email: Type.String(),
  createdAt: Type.String({ description: 'ISO 8601.' }),
  expiresAt: Type.String({ description: 'ISO 8601.' }),
})
export type SavedAddress = Static<typeof SavedAddress>

export const SaveAddressBody = Type.Object({
  email: Type.String({ maxLength: 400, description: 'A live address, e.g. the one in use when signing in.' }),
})
export type SaveAddressBody = Static<typeof SaveAddressBody>

export const SavedAddressesResponse = Type.Object({ addresses: Type.Array(SavedAddress) })
export type SavedAddressesResponse = Static<typeof SavedAddressesResponse>

/**
 * Setup is open until the first owner is made, then closed for good. While open, the key is returned unless the
 * server hides it (production without SHOW_SETUP_KEY): then `keyInLog` says the operator finds it in the server log.
 */
export const SetupStatusResponse = Type.Object({
  open: Type.Boolean(),
  secretKey: Type.Optional(Type.String()),
  keyInLog: Type.Optional(Type.Boolean({ description: 'True while open when the key is printed in the server log instead of shown.' })),
})
export type SetupStatusResponse = Static<typeof SetupStatusResponse>

export const PromoteOwnerBody = Type.Object({
  email: Type.String({ maxLength: 1000 }),
  secretKey: Type.String({ maxLength: 1000 }),
})
export type PromoteOwnerBody = Static<typeof PromoteOwnerBody>

export const PromoteOwnerResponse = Type.Object({ success: Type.Boolean(), message: Type.String(), user: PublicUser })
export type PromoteOwnerResponse = Static<typeof PromoteOwnerResponse>

export const ChangePasswordBody = Type.Object({
  currentPassword: Type.String({ maxLength: 1000 }),
  newPassword: Type.String({ maxLength: 1000 }),
})
export type ChangePasswordBody = Static<typeof ChangePasswordBody>

export const ChangeRoleBody = Type.Object({
  email: Type.String({ maxLength: 1000 }),
  role: Type.String({ maxLength: 20, description: 'user, admin or owner.' }),
})
export type ChangeRoleBody = Static<typeof ChangeRoleBody>

export const ChangeRoleResponse = Type.Object({ success: Type.Boolean(), message: Type.String(), user: PublicUser })
export type ChangeRoleResponse = Static<typeof ChangeRoleResponse>
