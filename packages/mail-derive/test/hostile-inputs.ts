/**
 * Pathological message bodies, one per class of attack on linear work (issue 12), built to about `size` characters:
 * big enough that anything quadratic over them would take seconds or hours. Used by the unit tests, the SMTP
 * integration test and `pnpm bench hostile` (at a size just under the display limit and at several megabytes).
 */
export interface HostileBody {
  html?: string
  text?: string
}

const fill = (unit: string, size: number) => unit.repeat(Math.max(1, Math.floor(size / unit.length)))

export function hostileBodies(size: number): Record<string, HostileBody> {
  return {
    'numeric references out of range': {
      html: fill('<a href="https://x.test/verify?t=&#99999999;&#x110000;&#0;&#xD800;">Verify &#99999999; now</a>', size),
    },
    'unclosed anchors repeated': { html: fill('<a href="https://x.test/confirm?u=1">confirm ', size) },
    'a link label of one char repeated': { html: `<a href="https://x.test/verify">${'a'.repeat(size)}</a>` },
    'a URL of dots': { html: `<a href="https://x.test/verify${'.'.repeat(size)}x">go</a>` },
    'a text URL of dots': { text: `sign in: https://x.test/login${'.'.repeat(size)}x` },
    'CSS url( never closed': {
      html: `<div style="${fill('background:url(x ', size / 2)}">a</div><style>${fill('a{background:url(https://t.test/', size / 2)}</style>`,
    },
    'deep nesting': { html: fill('<div>', size / 2) + 'deep' + fill('</span>', size / 2) },
    'unmatched end tags under the depth limit': { html: '<b>'.repeat(399) + fill('</i>', size) },
    'huge attribute values': { html: `<img src="https://t.test/${'x'.repeat(size / 2)}" alt="${'y'.repeat(size / 2)}"><p>t</p>` },
    'a single-line body': { text: fill('code ', size) },
    'capitals and digits in one run': { text: `verification code ${fill('A1', size)}` },
    'blanks without a newline': { html: `<p>${' '.repeat(size)}x</p>` },
    'bare less-than signs': { html: '<'.repeat(size) },
    '@import without semicolon': { html: `<style>${fill('@import ', size)}</style>` },
    'keywords and numbers alternating': { text: fill('code 123456 ', size) },
  }
}
