import { Type } from '@sinclair/typebox'
import { defineManifest } from '../../src/kernel/manifest.ts'
import { SolanaAddress } from '../../src/onchain/address.ts'
import { WalletIntelResult } from './schemas.ts'

export const manifest = defineManifest({
  name: 'wallet-intel',
  routes: {
    intel: {
      method: 'POST',
      path: '/wallet/intel',
      summary: 'Who is this wallet? Its trades, record, style and funding, from its own history',
      description:
        "A wallet's trades reconstructed from its own on-chain transactions (buys and sells of tokens against SOL, USDC or " +
        'USDT): `win_rate_pct`, `realized_pnl_usd`, hold times, `total_trades`, `funding_origin` (its first funder, and ' +
        'whether that is a known exchange), `behaviour_style` (sniper, bot-like, flipper, swing, holder), ' +
        '`copy_trade_worthiness` and a `verdict`. `coverage` says how much history every figure covers. Answers within 20 s.',
      price: { usd: '0.10' },
      accounts: { wallet_address: 'wallet' },
      body: Type.Object({
        wallet_address: SolanaAddress('The Solana wallet (base58, 32 to 44 characters)'),
      }),
      response: WalletIntelResult,
      rateLimit: 'scanner',
      tags: ['catalogue'],
      // Answers within 20 s; the reads stop half a second earlier to leave room to answer.
      deadlineMs: 19_500,
      requires: [
        { source: 'solana', why: 'SOLANA_RPC_URL is not set: wallet intel reads the wallet’s own transactions' },
      ],
    },
  },
})
