/** A public API of the header's API-keys dialog (spec §3); descriptions live in the `common` table under `apiKeys.items`. */
export type PublicApi = {
  id: string
  name: string
  baseUrl: string
  endpoints: { method: 'GET' | 'POST'; path: string }[]
  documentation: string
  free: boolean
  /** Translation key + count of the free allowance, when there is one. */
  freeLimit?: { key: 'perDay' | 'perHour' | 'perMonth'; count: number }
  requiresKey?: boolean
  signupUrl?: string
}

/** Real, openly documented APIs; the limits are the providers' published free tiers. */
export const PUBLIC_APIS: PublicApi[] = [
  {
    id: 'openMeteo',
    name: 'Open-Meteo',
    baseUrl: 'https://api.open-meteo.com/v1',
    endpoints: [{ method: 'GET', path: '/forecast?latitude=52.52&longitude=13.41&current=temperature_2m' }],
    documentation: 'https://open-meteo.com/en/docs',
    free: true,
    freeLimit: { key: 'perDay', count: 10000 },
    requiresKey: false,
  },
  {
    id: 'restCountries',
    name: 'REST Countries',
    baseUrl: 'https://restcountries.com/v3.1',
    endpoints: [
      { method: 'GET', path: '/all?fields=name,capital,flags' },
      { method: 'GET', path: '/name/{name}' },
    ],
    documentation: 'https://restcountries.com',
    free: true,
    requiresKey: false,
  },
  {
    id: 'openLibrary',
    name: 'Open Library',
    baseUrl: 'https://openlibrary.org',
    endpoints: [
      { method: 'GET', path: '/search.json?q={query}' },
      { method: 'GET', path: '/isbn/{isbn}.json' },
    ],
    documentation: 'https://openlibrary.org/developers/api',
    free: true,
    requiresKey: false,
  },
  {
    id: 'jsonPlaceholder',
    name: 'JSONPlaceholder',
    baseUrl: 'https://jsonplaceholder.typicode.com',
    endpoints: [
      { method: 'GET', path: '/posts' },
      { method: 'POST', path: '/posts' },
    ],
    documentation: 'https://jsonplaceholder.typicode.com/guide/',
    free: true,
    requiresKey: false,
  },
  {
    id: 'openWeather',
    name: 'OpenWeather One Call 3.0',
    baseUrl: 'https://api.openweathermap.org/data/3.0',
    endpoints: [{ method: 'GET', path: '/onecall?lat={lat}&lon={lon}&appid={API_KEY}' }],
    documentation: 'https://openweathermap.org/api/one-call-3',
    free: true,
    freeLimit: { key: 'perDay', count: 1000 },
    requiresKey: true,
    signupUrl: 'https://home.openweathermap.org/users/sign_up',
  },
  {
    id: 'nasa',
    name: 'NASA Open APIs',
    baseUrl: 'https://api.nasa.gov',
    endpoints: [{ method: 'GET', path: '/planetary/apod?api_key={API_KEY}' }],
    documentation: 'https://api.nasa.gov',
    free: true,
    freeLimit: { key: 'perHour', count: 1000 },
    requiresKey: true,
    signupUrl: 'https://api.nasa.gov/#signUp',
  },
]
