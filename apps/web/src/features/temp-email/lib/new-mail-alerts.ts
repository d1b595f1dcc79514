import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'

/** localStorage key of the reader's new-mail alert choices. */
export const MAIL_ALERTS_KEY = 'tempbox-mail-alerts'

interface MailAlertPrefs {
  /** Desktop notifications, asked for only when the reader turns this on. */
  desktop: boolean
  /** A short chime on new mail; off unless chosen. */
  sound: boolean
  setDesktop: (on: boolean) => void
  setSound: (on: boolean) => void
}

export const useMailAlertPrefs = create<MailAlertPrefs>()(
  persist(
    (set) => ({
      desktop: false,
      sound: false,
      setDesktop: (desktop) => set({ desktop }),
      setSound: (sound) => set({ sound }),
    }),
    { name: MAIL_ALERTS_KEY, storage: createJSONStorage(() => localStorage), partialize: (s) => ({ desktop: s.desktop, sound: s.sound }) },
  ),
)

export type NotificationSupport = 'unsupported' | NotificationPermission

export function notificationSupport(): NotificationSupport {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission
}

/** Asks for permission (only ever from the reader turning notifications on) and answers what the browser decided. */
export async function requestNotifications(): Promise<NotificationSupport> {
  if (typeof Notification === 'undefined') return 'unsupported'
  if (Notification.permission !== 'default') return Notification.permission
  return Notification.requestPermission()
}

/** At most this many notifications for one arrival of mail: a burst of 50 must not cover the screen. */
export const MAX_NOTIFICATIONS_AT_ONCE = 3

/** One desktop notification; clicking it brings this tab forward and opens the message. */
export function showMailNotification(title: string, body: string, tag: string, onClick: () => void): void {
  if (notificationSupport() !== 'granted') return
  try {
    const notification = new Notification(title, { body, tag })
    notification.onclick = () => {
      window.focus()
      onClick()
      notification.close()
    }
  } catch {
    // Some mobile browsers only allow notifications from a service worker; the tab title still shows the count.
  }
}

let audio: AudioContext | null = null

/**
 * A short two-note chime made on the spot with WebAudio: no file to fetch (the CSP allows none from elsewhere) and
 * quiet enough not to startle. Browsers keep an AudioContext suspended until the page had a user gesture; turning
 * the sound on is one, so the context is created then (`primeSound`).
 */
export function playChime(): void {
  const context = audio
  if (!context) return
  void context.resume().catch(() => undefined)
  const start = context.currentTime
  const gain = context.createGain()
  gain.connect(context.destination)
  gain.gain.setValueAtTime(0.0001, start)
  gain.gain.exponentialRampToValueAtTime(0.15, start + 0.02)
  gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.4)
  for (const [i, frequency] of [880, 1320].entries()) {
    const tone = context.createOscillator()
    tone.type = 'sine'
    tone.frequency.setValueAtTime(frequency, start + i * 0.12)
    tone.connect(gain)
    tone.start(start + i * 0.12)
    tone.stop(start + 0.4)
  }
}

export function primeSound(): void {
  const Context = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext
  if (!audio && Context) audio = new Context()
}
