import type { FundingFact } from '../../facts/types.ts'

/**
 * Slots within which one funder paying several wallets counts as one sitting of one operator: 150
 * slots is about a minute at 400 ms a slot, the time a script takes to fund its wallets.
 */
export const FUNDING_BURST_SLOTS = 150n

/**
 * Wallets one (non-creator) funder must pay in one sitting to link them: two wallets funded together
 * can be coincidence at a busy funder; three in a minute is a set-up.
 */
export const MIN_SHARED_FUNDER_WALLETS = 3

/** A group of traced wallets tied together by where their first SOL came from. */
export interface WalletCluster {
  /** The wallet that paid them (the creator for a creator-funded cluster). */
  funder: string
  /** The linked wallets, the creator excluded. */
  wallets: string[]
  /** Whether the creator is in the group (it funded them, they funded it, or one sitting paid both). */
  creator: boolean
  /** Why the wallets are linked. */
  link: 'creator_funded' | 'funded_creator' | 'shared_funder_burst' | 'traced_wallet_funder'
}

export interface WalletLinks {
  clusters: WalletCluster[]
  /** Every linked wallet (the creator excluded). */
  linked: Set<string>
  /** Wallets linked to the creator. */
  creatorLinked: Set<string>
  /** The group each linked wallet belongs to (its first cluster's funder), to treat a group as one trader. */
  groupOf: Map<string, string>
}

/**
 * Links the wallets of the funding fact (largest holders and first buyers) to each other and to the
 * creator, from who paid their first SOL:
 *
 * - a wallet funded by the creator, or one that funded the creator, is the creator's;
 * - a wallet funded by another traced wallet is linked to it (a direct transfer between two of them);
 * - wallets funded by one other funder are linked when at least MIN_SHARED_FUNDER_WALLETS of them were
 *   paid within FUNDING_BURST_SLOTS and that funder paid no traced wallet outside that sitting. A public
 *   source (an exchange hot wallet, a faucet) pays unrelated wallets at unrelated times and links nobody;
 *   an operator pays its wallets in one sitting.
 *
 * Wallets whose funder is unknown (more than one page of history) are linked to nobody.
 */
export function linkWallets(funding: FundingFact, creator: string | null): WalletLinks {
  const traced = new Set(funding.wallets.map((entry) => entry.wallet))
  const clusters: WalletCluster[] = []
  const known = funding.wallets.filter((entry) => entry.funder !== null)

  if (creator !== null) {
    const funded = known
      .filter((entry) => entry.funder === creator && entry.wallet !== creator)
      .map((entry) => entry.wallet)
    if (funded.length > 0) clusters.push({ funder: creator, wallets: funded, creator: true, link: 'creator_funded' })
    const creatorsFunder = known.find((entry) => entry.wallet === creator)?.funder
    if (creatorsFunder && traced.has(creatorsFunder) && creatorsFunder !== creator)
      clusters.push({ funder: creatorsFunder, wallets: [creatorsFunder], creator: true, link: 'funded_creator' })
  }

  const byFunder = new Map<string, typeof known>()
  for (const entry of known) {
    if (entry.funder === creator) continue
    byFunder.set(entry.funder!, [...(byFunder.get(entry.funder!) ?? []), entry])
  }
  for (const [funder, entries] of byFunder) {
    const wallets = entries.map((entry) => entry.wallet).filter((wallet) => wallet !== creator)
    const fundsCreator = entries.some((entry) => entry.wallet === creator)
    if (traced.has(funder)) {
      // A traced wallet paying another is a direct link, whatever the timing (paying only the creator
      // is the funded_creator link above).
      const members = [funder, ...wallets].filter((wallet) => wallet !== creator)
      if (members.length > 1)
        clusters.push({ funder, wallets: [...new Set(members)], creator: fundsCreator, link: 'traced_wallet_funder' })
      continue
    }
    const slots = entries.map((entry) => entry.slot)
    if (slots.some((slot) => slot === null) || entries.length < MIN_SHARED_FUNDER_WALLETS) continue
    const min = slots.reduce((a, b) => (a! < b! ? a : b))!
    const max = slots.reduce((a, b) => (a! > b! ? a : b))!
    if (max - min > FUNDING_BURST_SLOTS) continue
    clusters.push({ funder, wallets, creator: fundsCreator, link: 'shared_funder_burst' })
  }

  const linked = new Set<string>()
  const creatorLinked = new Set<string>()
  const groupOf = new Map<string, string>()
  for (const cluster of clusters)
    for (const wallet of cluster.wallets) {
      linked.add(wallet)
      if (cluster.creator) creatorLinked.add(wallet)
      if (!groupOf.has(wallet)) groupOf.set(wallet, cluster.funder)
    }
  return { clusters, linked, creatorLinked, groupOf }
}
