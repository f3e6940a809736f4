/**
 * Every route's input and output types, derived from the service's manifests (type-only imports: the
 * client carries none of the server's code). A route added to a mounted plugin is typed here without
 * hand work.
 */
import type { Static, TSchema } from '@sinclair/typebox'
import type { SERVICE_MANIFESTS } from '../src/app.ts'

type Manifest = (typeof SERVICE_MANIFESTS)[number]
type RoutesOf<M> = M extends { routes: infer R } ? R[keyof R] : never
type AnyRoute = RoutesOf<Manifest>

/** Every route by its `METHOD path` key (the x402 manifest's spelling). */
export type Routes = { [R in AnyRoute as `${R['method']} ${R['path']}`]: R }
export type RouteKey = keyof Routes

/** What a route takes: its JSON body, or its path parameters, or nothing. */
export type InputOf<K extends RouteKey> = Routes[K] extends { body: infer B extends TSchema }
  ? Static<B>
  : Routes[K] extends { params: infer P extends TSchema }
    ? Static<P>
    : Record<string, never>

/** What a route answers with 200. */
export type OutputOf<K extends RouteKey> = Static<Routes[K]['response']>

export type QuickScan = OutputOf<'POST /scan/quick'>
export type QuickScanBatch = OutputOf<'POST /scan/quick/batch'>
export type MarketIntel = OutputOf<'POST /market/intel'>
export type DeepDive = OutputOf<'POST /scan/deep'>
export type TradeQuote = OutputOf<'POST /trade/quote'>
export type TradeJob = OutputOf<'GET /trade/status/:job_id'>
export type ExitCheck = OutputOf<'POST /exit/check'>
export type ExitCrossCheck = OutputOf<'POST /exit/cross-check'>
export type Trending = OutputOf<'POST /scan/trending'>
export type SignalRadar = OutputOf<'POST /signal/radar'>
export type WalletIntel = OutputOf<'POST /wallet/intel'>
export type LaunchRadar = OutputOf<'POST /launch/radar'>
export type GraduationRadar = OutputOf<'POST /graduation/radar'>
export type SmartMoney = OutputOf<'POST /scan/smart-money'>
export type GraduationMomentum = OutputOf<'POST /graduation/momentum'>
export type NewsPulse = OutputOf<'POST /news/pulse'>
export type NewsBrief = OutputOf<'POST /news/brief'>
export type NewsPulsePlus = OutputOf<'POST /news/pulse_plus'>
export type NewsReport = OutputOf<'POST /news/report'>
export type TradeSuggestion = OutputOf<'POST /trade/suggest'>
