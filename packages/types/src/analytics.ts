import { Type, type Static } from 'typebox'

export const PageViewBody = Type.Object({ path: Type.String({ minLength: 1, maxLength: 2000 }) })
export type PageViewBody = Static<typeof PageViewBody>

export const RealtimeStats = Type.Object({
  visitorsToday: Type.Integer(),
  pageViewsToday: Type.Integer(),
  emailsToday: Type.Integer(),
  contactsToday: Type.Integer(),
  activeUsers: Type.Integer({ description: 'Distinct visitors seen in the last hour.' }),
})
export type RealtimeStats = Static<typeof RealtimeStats>

export const DashboardQuery = Type.Object({
  days: Type.Optional(Type.Union([Type.Literal('7'), Type.Literal('30'), Type.Literal('90')], { default: '30' })),
})
export type DashboardQuery = Static<typeof DashboardQuery>

export const CountryCount = Type.Object({ country: Type.String(), count: Type.Integer() })
export const PageCount = Type.Object({ page: Type.String(), count: Type.Integer() })
export const DailyVisits = Type.Object({ day: Type.String({ description: 'YYYY-MM-DD (UTC).' }), visitors: Type.Integer(), pageViews: Type.Integer() })
export type DailyVisits = Static<typeof DailyVisits>

export const DashboardStats = Type.Object({
  days: Type.Integer(),
  totalVisitors: Type.Integer(),
  totalPageViews: Type.Integer(),
  totalEmails: Type.Integer(),
  totalContacts: Type.Integer(),
  topCountries: Type.Array(CountryCount),
  topPages: Type.Array(PageCount),
  visitsPerDay: Type.Array(DailyVisits),
})
export type DashboardStats = Static<typeof DashboardStats>

export const CONTACT_STATUSES = ['new', 'read', 'replied'] as const

export const ContactMessage = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  subject: Type.String(),
  message: Type.String(),
  status: Type.String(),
  submittedAt: Type.String({ description: 'ISO 8601.' }),
})
export type ContactMessage = Static<typeof ContactMessage>

export const ContactsQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
})

export const ContactsResponse = Type.Object({ contacts: Type.Array(ContactMessage), total: Type.Integer() })
export type ContactsResponse = Static<typeof ContactsResponse>

export const ContactStatusParams = Type.Object({ id: Type.Integer({ minimum: 1 }) })
export const ContactStatusBody = Type.Object({ status: Type.String({ maxLength: 100 }) })
export type ContactStatusBody = Static<typeof ContactStatusBody>
export const ContactStatusResponse = Type.Object({ success: Type.Boolean(), contact: ContactMessage })
export type ContactStatusResponse = Static<typeof ContactStatusResponse>
