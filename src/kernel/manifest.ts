import { Type, type TSchema } from '@sinclair/typebox'
import type { AskedBy } from './asked.ts'
import { ERROR_CATALOGUE, type ErrorCode } from './errors.ts'
import { ErrorBodySchema, SOLANA_ADDRESS_FORMAT } from './schemas.ts'

export type HttpMethod = 'GET' | 'POST' | 'DELETE'

/** Named limit classes a route can opt into through its manifest (`rateLimit: 'scanner'`); shapes from config (src/http/rate-limit.ts). */
export type RateLimitClass = 'scanner'

/** What an account a route is given must be: an SPL Token / Token-2022 mint, or a wallet. */
export type AccountRole = 'token_mint' | 'wallet'

/** The refusals each role can answer. */
const ACCOUNT_ROLE_ERRORS: Record<AccountRole, readonly ErrorCode[]> = {
  token_mint: ['TOKEN_NOT_FOUND', 'NOT_A_TOKEN_MINT'],
  // No account at a wallet's address is a wallet that holds nothing yet: answered, not refused.
  wallet: ['NOT_A_WALLET'],
}

/**
 * A price in US dollars as a decimal string with at most 6 decimals (USDC precision), or free. With
 * `per`, `usd` is the price of one unit of the request (a mint scanned): a call costs `usd` × the units
 * its request buys (docs/payments.md, "Prices per unit").
 */
export type Price = { usd: `${number}`; per?: PerUnit } | 'free'

/**
 * A price that scales with the request: what one unit is, how many one call may buy, and how many a
 * request buys. The count is taken from the request once it is valid and before any challenge, so the
 * 402 asks for exactly that request's price and a payment is matched against it (src/http/payment-adapter.ts).
 */
export interface PerUnit {
  /** What one unit is, in the singular, as the price is said: `0.015 USD per mint (1–50)`. */
  unit: string
  /** The most units one call buys (its request's schema bounds it the same). */
  max: number
  /**
   * How many units a validated request buys, from its body — or by reading (a wallet's holdings):
   * given the service's context, it may answer a promise and throw the catalogue's errors (a 4xx
   * answered before any challenge). 0 buys nothing: the call is answered without payment. The kernel
   * knows neither bodies nor the service's context, so the parameters are typed where it is written.
   */
  count: (body: never, ctx: never) => number | Promise<number>
}

/**
 * How a route is served by `defineRoute` (src/http/define-route.ts): a `scanner` runs the scan of its body's
 * `token_address` (facts under its deadline → signals → grade) and answers from it; a `feed` reads the one
 * upstream it `requires` and answers by its `feedAt` and `answerAt` deadlines (src/feeds/feed-answer.ts);
 * without a kind, the route's own handler answers. The access paths and trade serve theirs themselves.
 */
export type RouteKind = 'scanner' | 'feed'

/**
 * A route's deadline in ms from the request's arrival (payment verification included): one, or several
 * named steps (a feed's `feedAt` and `answerAt`). Its handler receives them as epoch ms.
 */
export type DeadlineMs = number | Readonly<Record<string, number>>

/**
 * A source a route cannot answer without, and why the route is off without it — the setting to set, as
 * the start-up log and `/health`'s `routes_off` say it. `source` names a member of the service's sources
 * (`ctx.sources`); a list is met by any one of them. A route's first unmet requirement switches it off.
 */
export interface Requirement {
  source: string | readonly string[]
  why: string
}

/** One route a plugin serves. The manifest is the only place a route, its price or its schemas are written. */
export interface RouteSpec {
  method: HttpMethod
  /** Elysia path, e.g. `/scan/quick` or `/trade/status/:job_id`. */
  path: string
  summary: string
  description: string
  price: Price
  /**
   * A priced route whose outcome is known only later (trade execute: charged on confirmation): its
   * handler holds the payment (`holdPayment`) and settles or cancels it, instead of the route hooks
   * settling after any 2xx.
   */
  deferredPayment?: true
  body?: TSchema
  params?: TSchema
  /** Schema of the 200 answer. */
  response: TSchema
  /** Media type of the 200 answer. @default 'application/json' */
  produces?:
    | 'application/json'
    | 'text/plain'
    | 'text/markdown'
    | 'text/html'
    | 'text/javascript'
    | 'image/svg+xml'
    | 'text/event-stream'
  /**
   * Body members that name an on-chain account, and what it must be: a token mint (the scanners, exit
   * checks, a quote's mints, a feed's focus token) or a wallet (wallet intel). The account is read after
   * the payment is admitted and before the handler; another kind is refused (404 TOKEN_NOT_FOUND, 422
   * NOT_A_TOKEN_MINT, 422 NOT_A_WALLET) and the payment released (src/http/account-check.ts). A member
   * holding something else than an address (a ticker) is not read.
   */
  accounts?: Readonly<Record<string, AccountRole>>
  /** Errors this route can answer beyond those derived from its shape (body, params, rate limit). */
  errors?: ErrorCode[]
  /** A fuller error-body schema for a status (e.g. a trade's 422 with its job fields), instead of the generic one. */
  errorBodies?: Partial<Record<number, TSchema>>
  /** Per-client-IP limit class (see rate-limit.ts). */
  rateLimit?: RateLimitClass
  /**
   * Where the route stands in the suggested call order (spec §1 rule 5), and when to call it, in words
   * an agent reads: /llm.txt, /llms.txt, the MCP tools and the skill file all say it from here.
   */
  callOrder?: { step: number; when: string }
  /**
   * How a message in words asks for it (an A2A text-only message, as the card's examples read): the
   * phrases that select it and a reader of the parameters the words state (src/kernel/asked.ts).
   */
  askedBy?: AskedBy
  tags: string[]
  /** How `defineRoute` serves it; absent, its handler answers (see RouteKind). */
  kind?: RouteKind
  /** Its deadline(s) from the request's arrival, in ms; the handler receives them as epoch ms. */
  deadlineMs?: DeadlineMs
  /**
   * The sources it cannot answer without: while one is not configured, the route is switched off by the
   * registry — not mounted, not advertised, listed with the requirement's `why` in the start-up log and
   * `/health`'s `routes_off`.
   */
  requires?: readonly Requirement[]
}

/** An agent-card skill (spec §4.6). */
export interface SkillSpec {
  id: string
  name: string
  description: string
  tags: string[]
  examples: string[]
}

export interface PluginManifest<Routes extends Record<string, RouteSpec> = Record<string, RouteSpec>> {
  /** Feature name, the folder under plugins/ (one manifest per folder: test/boundaries.test.ts). */
  name: string
  /**
   * The features whose service this one uses (`plugins/<name>/service.ts`, and their schemas): each must
   * be in the plugin list, mounted or switched off (`Registry.checkDependencies` at boot), and a plugin
   * imports no other plugin's files beyond the ones it names here (test/boundaries.test.ts).
   */
  dependsOn?: readonly string[]
  skill?: SkillSpec
  routes: Routes
}

export interface RegisteredRoute extends RouteSpec {
  plugin: string
  /** The route's key in its manifest's `routes` (e.g. `quote`). */
  name: string
  skill?: string
  /** `METHOD path`, as the x402 manifest lists it. */
  key: string
  /** Body members holding a Solana address, checked before schema validation (→ INVALID_ADDRESS). */
  addressFields: AddressField[]
}

/** A body member holding a Solana address; an optional one may be absent. */
export interface AddressField {
  name: string
  optional: boolean
}

/** A manifest problem found at boot; the process must not start. */
export class ManifestError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ManifestError'
  }
}

/** Declares a plugin manifest, keeping the literal route keys for the plugin's own use. */
export function defineManifest<const Routes extends Record<string, RouteSpec>>(
  manifest: PluginManifest<Routes>,
): PluginManifest<Routes> {
  return manifest
}

const USD_PRICE = /^(0|[1-9]\d*)(\.\d{1,6})?$/
const USDC_DECIMALS = 6

/** `'0.02'` → `'20000'`: a USD price in USDC atomic units (6 decimals), exact. */
export function usdToAtomicUsdc(usd: string): string {
  if (!USD_PRICE.test(usd)) throw new ManifestError(`price "${usd}" is not a USD amount with at most 6 decimals`)
  const [whole, fraction = ''] = usd.split('.')
  return (BigInt(whole!) * 10n ** BigInt(USDC_DECIMALS) + BigInt(fraction.padEnd(USDC_DECIMALS, '0'))).toString()
}

/** `'20000'` → `'0.02'`: atomic USDC as a USD amount (no trailing zeros past the cents). */
export function atomicUsdcToUsd(atomic: string | bigint): string {
  const value = BigInt(atomic)
  const scale = 10n ** BigInt(USDC_DECIMALS)
  const fraction = (value % scale).toString().padStart(USDC_DECIMALS, '0').replace(/0+$/, '').padEnd(2, '0')
  return `${value / scale}.${fraction}`
}

/**
 * What a call of a priced route costs in atomic USDC when its request buys `units` (1 for a fixed
 * price): the unit price × units, exact. Units outside 0…max are a defect of the route's count.
 */
export function atomicPriceOf(price: Exclude<Price, 'free'>, units = 1): string {
  const max = price.per?.max ?? 1
  if (!Number.isInteger(units) || units < 0 || units > max)
    throw new Error(`a request buys ${units} units of a price of at most ${max}`)
  return (BigInt(usdToAtomicUsdc(price.usd)) * BigInt(units)).toString()
}

/**
 * The manifests of the plugins actually mounted. Plugins register themselves when constructed;
 * discovery, OpenAPI, rate limits and payments read from here, so nothing restates a route or a price.
 */
export class Registry {
  readonly #plugins = new Map<string, PluginManifest>()
  readonly #routes = new Map<string, RegisteredRoute>()
  /** method → path → route: looked up on every request, so no key string is built there. */
  readonly #byMethod = new Map<string, Map<string, RegisteredRoute>>()
  /** Routes with path parameters (`/trade/status/:job_id`), matched segment by segment. */
  readonly #patterns: { route: RegisteredRoute; segments: string[] }[] = []
  readonly #skills = new Map<string, SkillSpec & { plugin: string }>()
  /** `METHOD path` of the priced routes whose payment is mounted (route hooks, or a handler's hold). */
  readonly #paymentMounted = new Set<string>()
  readonly #off: { plugin: string; routes: string[]; why: string }[] = []
  readonly #offManifests = new Map<string, PluginManifest>()

  /** The routes switched off, each with why. */
  off(): readonly { plugin: string; routes: string[]; why: string }[] {
    return this.#off
  }

  /**
   * Boot check (Fastify's plugin dependencies): every feature a manifest `dependsOn` is in the plugin
   * list, mounted or switched off; the process must not start otherwise.
   */
  checkDependencies(): void {
    const known = new Set([...this.#plugins.keys(), ...this.#offManifests.keys()])
    for (const manifest of [...this.#plugins.values(), ...this.#offManifests.values()])
      for (const dependency of manifest.dependsOn ?? [])
        if (!known.has(dependency))
          throw new ManifestError(
            `plugin:${manifest.name} depends on plugin:${dependency}, which is not in the plugin list (src/app.ts)`,
          )
  }

  /**
   * Registers a plugin's manifest. A route whose `requires` names a source that `available` says is not
   * configured is switched off: not registered (so neither mounted nor advertised), and listed by `off()`
   * with the unmet requirement's `why` (routes of a plugin off for the same reason in one entry). A plugin
   * whose every route is off is not registered. Returns the names of the routes on, to mount.
   */
  register<Routes extends Record<string, RouteSpec>>(
    manifest: PluginManifest<Routes>,
    available: (source: string) => boolean = () => true,
  ): (keyof Routes & string)[] {
    const owner = `plugin:${manifest.name}`
    if (this.#plugins.has(manifest.name) || this.#offManifests.has(manifest.name))
      throw new ManifestError(`${owner} is registered twice`)
    const on: (keyof Routes & string)[] = []
    const off = new Map<string, string[]>()
    for (const [name, spec] of Object.entries(manifest.routes)) {
      checkRoute(owner, spec)
      const unmet = spec.requires?.find((requirement) =>
        typeof requirement.source === 'string'
          ? !available(requirement.source)
          : !requirement.source.some((source) => available(source)),
      )
      if (unmet) off.set(unmet.why, [...(off.get(unmet.why) ?? []), `${spec.method} ${spec.path}`])
      else on.push(name)
    }
    for (const [why, routes] of off) this.#off.push({ plugin: manifest.name, routes, why })
    if (on.length === 0 && off.size > 0) {
      this.#offManifests.set(manifest.name, manifest)
      return on
    }
    if (manifest.skill) {
      const other = this.#skills.get(manifest.skill.id)
      if (other)
        throw new ManifestError(
          `duplicate skill id ${manifest.skill.id}: declared by plugin:${other.plugin} and ${owner}`,
        )
    }
    const added: RegisteredRoute[] = []
    for (const name of on) {
      const spec = manifest.routes[name]!
      const key = `${spec.method} ${spec.path}`
      if (!spec.path.startsWith('/')) throw new ManifestError(`${owner}: route path "${spec.path}" must start with /`)
      const other = this.#routes.get(key) ?? added.find((route) => route.key === key)
      if (other) throw new ManifestError(`duplicate route ${key}: declared by plugin:${other.plugin} and ${owner}`)
      if (spec.price !== 'free') checkPrice(owner, key, spec.price)
      const members = (spec.body as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}
      for (const field of Object.keys(spec.accounts ?? {}))
        if (!(field in members))
          throw new ManifestError(`${owner}: ${key} declares the account of "${field}", which is no member of its body`)
      const fields = spec.body ? addressFields(spec.body) : []
      added.push({ ...spec, plugin: manifest.name, name, skill: manifest.skill?.id, key, addressFields: fields })
    }
    this.#plugins.set(manifest.name, manifest)
    if (manifest.skill) this.#skills.set(manifest.skill.id, { ...manifest.skill, plugin: manifest.name })
    for (const route of added) {
      this.#routes.set(route.key, route)
      const paths = this.#byMethod.get(route.method) ?? new Map<string, RegisteredRoute>()
      this.#byMethod.set(route.method, paths.set(route.path, route))
      if (route.path.includes('/:')) this.#patterns.push({ route, segments: route.path.split('/') })
    }
    return on
  }

  /** Records that a priced route takes its payment (src/http/payment-adapter.ts calls this when it mounts one). */
  markPaymentMounted(spec: Pick<RouteSpec, 'method' | 'path'>): void {
    this.#paymentMounted.add(`${spec.method} ${spec.path}`)
  }

  /** Boot check: a priced route without a payment path would be served free; the process must not start. */
  checkPaymentsMounted(): void {
    for (const route of this.routes())
      if (route.price !== 'free' && !this.#paymentMounted.has(route.key))
        throw new ManifestError(
          `plugin:${route.plugin} serves ${route.key} at ${route.price.usd} USD without payment: mount it with routeOptions(ctx, spec)` +
            (route.deferredPayment ? ' and hold the payment in its handler with holdPayment(ctx, spec)' : ''),
        )
  }

  /** The names of the registered plugins, in registration order. */
  plugins(): string[] {
    return [...this.#plugins.keys()]
  }

  /** Every registered route, in registration order. */
  routes(): RegisteredRoute[] {
    return [...this.#routes.values()]
  }

  /** The route a request's method and path (or a route's own path pattern) reach, if any. */
  route(method: string, path: string): RegisteredRoute | undefined {
    return this.#byMethod.get(method)?.get(path) ?? this.#matchPattern(method, path)
  }

  #matchPattern(method: string, path: string): RegisteredRoute | undefined {
    if (this.#patterns.length === 0) return undefined
    const segments = path.split('/')
    return this.#patterns.find(
      ({ route, segments: pattern }) =>
        route.method === method &&
        pattern.length === segments.length &&
        pattern.every((part, i) => (part.startsWith(':') ? segments[i] !== '' : part === segments[i])),
    )?.route
  }

  /** The mounted routes in the suggested call order (spec §1 rule 5), each with when to call it. */
  callOrder(): (RegisteredRoute & { callOrder: { step: number; when: string } })[] {
    return this.routes()
      .filter((route): route is RegisteredRoute & { callOrder: { step: number; when: string } } => !!route.callOrder)
      .sort((a, b) => a.callOrder.step - b.callOrder.step)
  }

  skills(): SkillSpec[] {
    return [...this.#skills.values()].map(({ plugin: _plugin, ...skill }) => skill)
  }

  /**
   * The price table: every paid route with its USD and atomic USDC price — of one unit, with the unit
   * and the most units one call buys, for a price per unit.
   */
  prices(): {
    route: string
    skill: string | undefined
    usd: string
    atomic: string
    per?: { unit: string; max: number }
  }[] {
    return this.routes().flatMap((route) =>
      route.price === 'free'
        ? []
        : [
            {
              route: route.key,
              skill: route.skill,
              usd: route.price.usd,
              atomic: usdToAtomicUsdc(route.price.usd),
              ...(route.price.per ? { per: { unit: route.price.per.unit, max: route.price.per.max } } : {}),
            },
          ],
    )
  }
}

/** The routes that require a source, each with why it is off without it (docs/catalogue.md, generated). */
export function requirementTable(manifests: readonly PluginManifest[]): string {
  const rows = manifests.flatMap((manifest) =>
    Object.values(manifest.routes)
      .filter((spec) => (spec.requires ?? []).length > 0)
      .map((spec) => `| \`${spec.method} ${spec.path}\` | ${spec.requires!.map((need) => need.why).join('; or ')} |`),
  )
  return ['| Route | Switched off while |', '|---|---|', ...rows].join('\n')
}

/** The suggested call order (spec §1 rule 5) as numbered lines: `1. POST /scan/quick before any swap…`. */
export function callOrderLines(registry: Registry): string[] {
  return registry.callOrder().map((route, index) => `${index + 1}. ${route.key} ${route.callOrder.when}.`)
}

/**
 * A route's price in words: `free`, `0.02 USD`, `0.015 USD per mint (1–50)`, `0.15 USD, charged only
 * when the swap confirms`.
 */
export function priceInWords(route: Pick<RouteSpec, 'price' | 'deferredPayment'>): string {
  if (route.price === 'free') return 'free'
  const per = route.price.per ? ` per ${route.price.per.unit} (1–${route.price.per.max})` : ''
  return `${route.price.usd} USD${per}${route.deferredPayment ? ', charged only when the swap confirms' : ''}`
}

/** Boot check of a price: a USD amount with at most 6 decimals; a price per unit buys 1 to `max` units. */
function checkPrice(owner: string, key: string, price: Exclude<Price, 'free'>): void {
  usdToAtomicUsdc(price.usd)
  if (!price.per) return
  const { unit, max } = price.per
  if (!Number.isInteger(max) || max < 1 || !/^[a-z][a-z -]*$/.test(unit))
    throw new ManifestError(
      `${owner}: ${key} is priced per unit: name the unit (a lowercase word) and a max of 1 or more`,
    )
}

/** The error codes a route can answer, derived from its shape plus the ones it declares. */
export function routeErrors(spec: RouteSpec): ErrorCode[] {
  const codes = new Set<ErrorCode>(spec.errors ?? [])
  for (const role of Object.values(spec.accounts ?? {})) for (const code of ACCOUNT_ROLE_ERRORS[role]) codes.add(code)
  if (spec.body) {
    for (const code of ['INVALID_JSON', 'INVALID_REQUEST', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'] as const)
      codes.add(code)
    if (addressFields(spec.body).length > 0) codes.add('INVALID_ADDRESS')
  }
  if (spec.params) codes.add('INVALID_REQUEST')
  if (spec.rateLimit) codes.add('RATE_LIMITED')
  if (spec.price !== 'free') {
    codes.add('PAYMENT_REQUIRED')
    codes.add('FACILITATOR_UNAVAILABLE')
    codes.add('LEDGER_UNAVAILABLE')
    // A payment identifier reused for another call (docs/payments.md, "Idempotency and re-fetching").
    codes.add('PAYMENT_ID_CONFLICT')
  }
  codes.add('INTERNAL')
  return [...codes].sort((a, b) => ERROR_CATALOGUE[a].status - ERROR_CATALOGUE[b].status || a.localeCompare(b))
}

/**
 * What a route's kind asks of its entry (src/http/define-route.ts serves it so): a scanner's body carries
 * `token_address` and its deadline is one; a feed requires its source and has `feedAt` and `answerAt`.
 */
function checkRoute(owner: string, spec: RouteSpec): void {
  const key = `${spec.method} ${spec.path}`
  const deadlines = typeof spec.deadlineMs === 'number' ? [spec.deadlineMs] : Object.values(spec.deadlineMs ?? {})
  if (deadlines.some((ms) => !Number.isInteger(ms) || ms <= 0))
    throw new ManifestError(`${owner}: ${key} has a deadline that is not a positive number of ms`)
  if (spec.kind === 'scanner') {
    const members = (spec.body as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}
    if (!('token_address' in members) || typeof spec.deadlineMs !== 'number')
      throw new ManifestError(
        `${owner}: ${key} is a scanner: its body has token_address and its deadlineMs is one number`,
      )
  }
  if (spec.kind === 'feed') {
    const [first] = spec.requires ?? []
    const steps = typeof spec.deadlineMs === 'object' ? Object.keys(spec.deadlineMs).sort().join(',') : ''
    if (typeof first?.source !== 'string' || steps !== 'answerAt,feedAt')
      throw new ManifestError(
        `${owner}: ${key} is a feed: it requires its source first and its deadlineMs are { feedAt, answerAt }`,
      )
  }
}

/** Top-level members of an object schema that hold a Solana address. */
export function addressFields(schema: TSchema): AddressField[] {
  const properties = (schema as { properties?: Record<string, TSchema> }).properties ?? {}
  const required = new Set((schema as { required?: string[] }).required ?? [])
  return Object.entries(properties)
    .filter(([, property]) => (property as { format?: string }).format === SOLANA_ADDRESS_FORMAT)
    .map(([name]) => ({ name, optional: !required.has(name) }))
}

/** OpenAPI response map: the 200 schema and one error schema per status the route can answer. */
export function responseSchemas(spec: RouteSpec): Record<number, TSchema> {
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of routeErrors(spec)) {
    const status = ERROR_CATALOGUE[code].status
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  const responses: Record<number, TSchema> = { 200: spec.response }
  for (const [status, codes] of byStatus) {
    const fuller = spec.errorBodies?.[status]
    // A fuller body stands for the codes it names; the status's other codes keep the generic body beside it.
    const others = fuller ? codes.filter((code) => !codesOf(fuller).includes(code)) : codes
    responses[status] = !fuller
      ? ErrorBodySchema(codes)
      : others.length === 0
        ? fuller
        : Type.Union([fuller, ErrorBodySchema(others)])
  }
  return responses
}

/** The codes an error-body schema's `code` member allows (a literal, or a union of literals). */
function codesOf(schema: TSchema): string[] {
  const code = (schema as { properties?: { code?: { const?: unknown; anyOf?: { const?: unknown }[] } } }).properties
    ?.code
  return [code?.const, ...(code?.anyOf ?? []).map((member) => member.const)].filter(
    (value): value is string => typeof value === 'string',
  )
}
