import { describeSiteAccessibility } from './site-a11y'
import { SITE_ROUTES } from './site-routes'

describeSiteAccessibility('site pages', SITE_ROUTES.filter((route) => !route.legal))
