import { describeSiteAccessibility } from './site-a11y'

describeSiteAccessibility('light')
