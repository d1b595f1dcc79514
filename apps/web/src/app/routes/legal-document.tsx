import { LegalDocument } from '../../features/legal/components/legal-document'

export function PrivacyPolicyRoute() {
  return <LegalDocument doc="privacy" />
}
export function TermsRoute() {
  return <LegalDocument doc="terms" />
}
export function DisclaimerRoute() {
  return <LegalDocument doc="disclaimer" />
}
export function CookiePolicyRoute() {
  return <LegalDocument doc="cookies" />
}
export function GdprRoute() {
  return <LegalDocument doc="gdpr" />
}
