/**
 * @solana/kit's subscriptions client, made to notice a connection the server closed cleanly.
 *
 * kit's WebSocket channel (8.4, `@solana/rpc-subscriptions-channel-websocket` `handleClose`) reports a
 * closed connection as an error only when the close was not clean: a server closing with code 1000 (a
 * provider rotating its nodes, a load balancer draining) ends the connection silently, and every
 * subscription on it neither ends nor fails — a follower waits forever for notifications that will never
 * come. kit's own heartbeat (`getRpcSubscriptionsChannelWithAutoping`) sees the closed socket when its
 * ping cannot be sent, but only stops pinging.
 *
 * So each connection gets a liveness check: every `checkMs` the same `ping` kit's heartbeat sends (no
 * new message for the provider, no answer awaited: the send fails at once on a closed socket), and when
 * it cannot be sent, every subscription on the connection fails with kit's
 * `SOLANA_ERROR__RPC_SUBSCRIPTIONS__CHANNEL_CONNECTION_CLOSED`. Whoever follows (the watch engine's log
 * multiplexer, the launchpad ingester) then does what it does after any drop: subscribes again on a new
 * client and reads back what it missed.
 */
import {
  createDefaultRpcSubscriptionsTransport,
  createDefaultSolanaRpcSubscriptionsChannelCreator,
  createSolanaRpcSubscriptionsFromTransport,
  isSolanaError,
  type RpcSubscriptionsChannel,
  SOLANA_ERROR__RPC_SUBSCRIPTIONS__CHANNEL_CONNECTION_CLOSED,
} from '@solana/kit'

/** What kit's heartbeat sends (rpc-subscriptions `PING_PAYLOAD`). */
const PING = { jsonrpc: '2.0', method: 'ping' }

export interface LivenessOptions {
  /**
   * How often each connection is checked: a cleanly closed connection is noticed within this.
   * @default 5000 (kit's heartbeat interval)
   */
  checkMs?: number
}

type Channel = RpcSubscriptionsChannel<unknown, unknown>
type ErrorListener = (error: unknown) => void

/** One per connection: the subscriptions' error listeners, told when the check finds it closed. */
interface Liveness {
  channel: Channel
  listeners: Set<ErrorListener>
  users: number
  timer: ReturnType<typeof setInterval>
}

export function createLiveSolanaRpcSubscriptions(url: string, { checkMs = 5_000 }: LivenessOptions = {}) {
  const pooled = createDefaultSolanaRpcSubscriptionsChannelCreator({ url }) as unknown as (config: {
    abortSignal: AbortSignal
  }) => Promise<Channel>
  // kit keys its per-connection state (subscriber counts, the notification demultiplexer) by the channel
  // object: one wrapper per connection keeps that state as kit expects it.
  const checked = new WeakMap<Channel, Liveness>()
  const createChannel = async ({ abortSignal }: { abortSignal: AbortSignal }): Promise<Channel> => {
    const inner = await pooled({ abortSignal })
    let liveness = checked.get(inner)
    if (!liveness) liveness = watch(inner, checkMs, () => checked.delete(inner))
    checked.set(inner, liveness)
    const held = liveness
    held.users++
    abortSignal.addEventListener(
      'abort',
      () => {
        if (--held.users === 0) {
          clearInterval(held.timer)
          checked.delete(inner)
        }
      },
      { once: true },
    )
    return held.channel
  }
  return createSolanaRpcSubscriptionsFromTransport(
    createDefaultRpcSubscriptionsTransport({ createChannel: createChannel as never }),
  )
}

function watch(inner: Channel, checkMs: number, forget: () => void): Liveness {
  const listeners = new Set<ErrorListener>()
  const channel: Channel = {
    send: (message) => inner.send(message),
    on(type, listener, options) {
      const off = inner.on(type, listener, options)
      if (type !== 'error') return off
      const errorListener = listener as ErrorListener
      listeners.add(errorListener)
      const remove = () => listeners.delete(errorListener)
      options?.signal?.addEventListener('abort', remove, { once: true })
      return () => {
        off()
        remove()
      }
    },
  }
  const timer = setInterval(() => {
    inner.send(PING).catch((error: unknown) => {
      if (!isSolanaError(error, SOLANA_ERROR__RPC_SUBSCRIPTIONS__CHANNEL_CONNECTION_CLOSED)) return
      clearInterval(timer)
      forget()
      for (const listener of [...listeners]) listener(error)
    })
  }, checkMs)
  // A check never keeps the process alive by itself.
  ;(timer as { unref?: () => void }).unref?.()
  return { channel, listeners, users: 0, timer }
}
