import { Type } from '@sinclair/typebox'
import { defineManifest } from '../../src/kernel/manifest.ts'
import { hoursBought } from './service.ts'
import {
  MAX_WATCH_HOURS,
  WATCH_HOUR_USD,
  WatchCancelled,
  WatchCreated,
  WatchParams,
  WatchRequest,
  WatchStatus,
} from './schemas.ts'

const SOLANA = [{ source: 'solana', why: 'SOLANA_RPC_URL is not set: nothing can be watched' }] as const
const SIGNED_IN =
  'Signed in with SIGN-IN-WITH-X by the wallet that paid for the watch (a CAIP-122 message for this URL, issued within 5 minutes): 403 for another wallet, 404 for an unknown id.'

export const manifest = defineManifest({
  name: 'watch',
  // A high or critical alert carries the holder's exit ready to sign (the trade's exitFor), the sell route
  // is the trade's price of a sale (sellRouteOf), grade_fell re-runs the quick scan (quickScanAnswer).
  dependsOn: ['trade', 'quick-scan'],
  routes: {
    watch: {
      method: 'POST',
      path: '/watch',
      summary: 'Watch a token and be told, signed, the moment it turns dangerous',
      description: `Liquidity pulled, supply minted, holders frozen, Token-2022 changes, renames, insiders selling: told in seconds by signed webhook and event stream (docs/watch.md). Paid per hour up front, charged once the watch runs.`,
      price: { usd: WATCH_HOUR_USD, per: { unit: 'hour', max: MAX_WATCH_HOURS, count: hoursBought } },
      body: WatchRequest,
      response: WatchCreated,
      // Read before the challenge by the price's count already (a refused mint is never challenged);
      // declared so the account check and the catalogue say what the route refuses, as every token route.
      accounts: { token_address: 'token_mint' },
      errors: ['UPSTREAM_UNAVAILABLE'],
      rateLimit: 'scanner',
      tags: ['watch'],
      requires: SOLANA,
    },
    status: {
      method: 'GET',
      path: '/watch/:id',
      summary: 'A watch, its alerts so far with their delivery, its dead letters',
      description: `The watch's period and settings, every event detected (with its webhook delivery: pending, delivered or dead), its dead letters and a short-lived token opening its event stream from an EventSource. ${SIGNED_IN}`,
      price: 'free',
      params: WatchParams,
      response: WatchStatus,
      errors: ['FORBIDDEN', 'NOT_FOUND'],
      tags: ['watch'],
      requires: SOLANA,
    },
    cancel: {
      method: 'DELETE',
      path: '/watch/:id',
      summary: 'Cancel a watch (no refund)',
      description: `Nothing more is detected for the watch; alerts already detected are still delivered. The paid period is not refunded. ${SIGNED_IN}`,
      price: 'free',
      params: WatchParams,
      response: WatchCancelled,
      errors: ['FORBIDDEN', 'NOT_FOUND'],
      tags: ['watch'],
      requires: SOLANA,
    },
    events: {
      method: 'GET',
      path: '/watch/:id/events',
      summary: 'A watch’s alerts as Server-Sent Events',
      description: `Each alert as an \`alert\` event whose \`id:\` is its sequence in the watch: reconnecting with Last-Event-ID resumes after it (from the store, nothing missed); a comment every 15 s keeps the connection open; the stream ends when the paid period is over or the watch is cancelled. ${SIGNED_IN} An EventSource, which cannot send headers, opens it with ?token= (GET /watch/:id's stream_token, valid 5 minutes).`,
      price: 'free',
      params: WatchParams,
      response: Type.String({ description: 'text/event-stream' }),
      produces: 'text/event-stream',
      errors: ['FORBIDDEN', 'NOT_FOUND'],
      tags: ['watch'],
      requires: SOLANA,
    },
  },
})
