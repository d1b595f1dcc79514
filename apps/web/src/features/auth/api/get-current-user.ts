/** Placeholder until the auth feature lands: always a guest. */
export function useCurrentUser(): { user: { email: string; role: string } | null; isAdmin: boolean; isLoading: boolean } {
  return { user: null, isAdmin: false, isLoading: false }
}
