import { X509Certificate } from 'node:crypto'
import { readFileSync, unwatchFile, watchFile } from 'node:fs'
import { createSecureContext } from 'node:tls'

export interface TlsFiles {
  certPath: string
  keyPath: string
}

export interface KeyPair {
  cert: Buffer
  key: Buffer
}

/**
 * Reads the certificate chain and key, and checks that they make a working TLS context (a key that does not match the
 * certificate is refused here, not at the first STARTTLS).
 */
export function readKeyPair(files: TlsFiles): KeyPair {
  const pair = { cert: readFileSync(files.certPath), key: readFileSync(files.keyPath) }
  createSecureContext(pair)
  return pair
}

/** "CN=mx.example.com, valid until …": what an operator wants to see in the log. */
export function describeCertificate(cert: Buffer): string {
  const x509 = new X509Certificate(cert)
  const subject = x509.subject.split('\n').join(', ')
  return `${subject}, valid until ${new Date(x509.validTo).toISOString()}`
}

/**
 * Watches both files (by polling their stat, which also sees a renamed-over or re-linked file, as certificate tools
 * replace them) and hands a new pair to `apply` whenever the two together make a valid context again. A half-done
 * rotation (new certificate, old key) is reported and the current pair kept until the other file follows.
 * Returns the function that stops watching.
 */
export function watchKeyPair(
  files: TlsFiles,
  intervalMs: number,
  apply: (pair: KeyPair) => void,
  log: { info: (line: string) => void; error: (line: string) => void },
): () => void {
  const reload = () => {
    let pair: KeyPair
    try {
      pair = readKeyPair(files)
    } catch (error) {
      log.error(`[smtp] TLS certificate not reloaded, keeping the current one: ${(error as Error).message}`)
      return
    }
    apply(pair)
    log.info(`[smtp] TLS certificate reloaded: ${describeCertificate(pair.cert)}`)
  }
  const onChange = (now: { mtimeMs: number; ino: number; size: number }, before: { mtimeMs: number; ino: number; size: number }) => {
    if (now.mtimeMs !== before.mtimeMs || now.ino !== before.ino || now.size !== before.size) reload()
  }
  watchFile(files.certPath, { interval: intervalMs, persistent: false }, onChange)
  watchFile(files.keyPath, { interval: intervalMs, persistent: false }, onChange)
  return () => {
    unwatchFile(files.certPath, onChange)
    unwatchFile(files.keyPath, onChange)
  }
}
