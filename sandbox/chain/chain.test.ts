import { getTransferSolInstruction } from '@solana-program/system'
import {
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getTransactionEncoder,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type KeyPairSigner,
} from '@solana/kit'
import { describe, expect, test } from 'bun:test'
import { BLOCKHASH_VALID_BLOCKS, Chain, SLOT_MS } from './chain.ts'

const GENESIS = 1_700_000_000

async function transfer(
  chain: Chain,
  from: KeyPairSigner,
  to: string,
  amount: bigint,
  blockhash = chain.latestBlockhash(),
) {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(from, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) =>
      appendTransactionMessageInstructions(
        [getTransferSolInstruction({ source: from, destination: address(to), amount: lamports(amount) })],
        m,
      ),
  )
  return new Uint8Array(getTransactionEncoder().encode(await signTransactionMessageWithSigners(message)))
}

async function funded(chain: Chain) {
  const payer = await generateKeyPairSigner()
  chain.svm.airdrop(payer.address, lamports(10_000_000_000n))
  return payer
}

describe('Chain', () => {
  test('a committed transaction is stored with balances, fee and history, and produces a block', async () => {
    const chain = new Chain({ genesisUnixS: GENESIS })
    const payer = await funded(chain)
    const recipient = (await generateKeyPairSigner()).address
    const before = chain.slot
    const outcome = chain.send(await transfer(chain, payer, recipient, 1_000_000n))
    expect(outcome.ok).toBe(true)
    if (!outcome.ok) return
    expect(chain.slot).toBe(before + 1n)
    const stored = chain.getTransaction(outcome.signature)!
    expect(stored.slot).toBe(before)
    expect(stored.blockTime).toBe(GENESIS)
    expect(stored.meta.err).toBeNull()
    expect(stored.meta.fee).toBe(5_000n)
    expect(stored.meta.preBalances[0]! - stored.meta.postBalances[0]!).toBe(1_005_000n)
    expect(stored.meta.postBalances[1]).toBe(1_000_000n)
    expect(chain.signaturesFor(recipient)).toEqual([outcome.signature])
    expect(chain.getBalance(recipient)).toBe(1_000_000n)
  })

  test('recent blockhashes stay valid for 150 blocks, then expire', async () => {
    const chain = new Chain({ genesisUnixS: GENESIS })
    const payer = await funded(chain)
    const old = chain.latestBlockhash()
    for (let i = 0n; i < BLOCKHASH_VALID_BLOCKS; i++) chain.produceBlock()
    expect(chain.send(await transfer(chain, payer, payer.address, 1n, old)).ok).toBe(true)
    const older = chain.latestBlockhash()
    for (let i = 0n; i <= BLOCKHASH_VALID_BLOCKS; i++) chain.produceBlock()
    const refused = chain.send(await transfer(chain, payer, payer.address, 1n, older))
    expect(refused).toMatchObject({ ok: false, err: 'BlockhashNotFound' })
  })

  test('the same transaction twice is refused as AlreadyProcessed', async () => {
    const chain = new Chain({ genesisUnixS: GENESIS })
    const payer = await funded(chain)
    const wire = await transfer(chain, payer, payer.address, 1n)
    expect(chain.send(wire).ok).toBe(true)
    expect(chain.send(wire)).toMatchObject({ ok: false, err: 'AlreadyProcessed' })
  })

  test('a failing instruction is committed with its error and the fee charged', async () => {
    const chain = new Chain({ genesisUnixS: GENESIS })
    const payer = await funded(chain)
    const outcome = chain.send(await transfer(chain, payer, payer.address, 1n))
    expect(outcome.ok).toBe(true)
    const poor = await generateKeyPairSigner()
    chain.svm.airdrop(poor.address, lamports(1_000_000n))
    const failed = chain.send(await transfer(chain, poor, payer.address, 5_000_000n))
    expect(failed.ok).toBe(true)
    if (!failed.ok) return
    expect(failed.stored.meta.err).toEqual({ InstructionError: [0, { Custom: 1 }] })
    expect(chain.getBalance(poor.address)).toBe(1_000_000n - 5_000n)
  })

  test('time moves slots forward at the slot rate and never backwards', () => {
    const chain = new Chain({ genesisUnixS: GENESIS })
    chain.advanceTo(GENESIS + 60)
    expect(chain.slot).toBe(BigInt((60 * 1000) / SLOT_MS))
    const slot = chain.slot
    chain.advanceTo(GENESIS)
    expect(chain.unixS).toBe(GENESIS + 60)
    expect(chain.slot).toBe(slot)
  })

  test('blocks produced faster than real time keep their slots; time catches up', () => {
    const chain = new Chain({ genesisUnixS: GENESIS })
    for (let i = 0; i < 5; i++) chain.produceBlock()
    expect(chain.slot).toBe(5n)
    chain.advanceTo(GENESIS + 1) // slot 2 by time: already passed
    expect(chain.slot).toBe(5n)
    chain.advanceTo(GENESIS + 4) // slot 10 by time
    expect(chain.slot).toBe(10n)
  })

  test('simulation commits nothing and can replace the blockhash', async () => {
    const chain = new Chain({ genesisUnixS: GENESIS })
    const payer = await funded(chain)
    const stale = chain.latestBlockhash()
    for (let i = 0n; i <= BLOCKHASH_VALID_BLOCKS; i++) chain.produceBlock()
    const wire = await transfer(chain, payer, payer.address, 1n, stale)
    expect(chain.simulate(wire).err).toBe('BlockhashNotFound')
    const replaced = chain.simulate(wire, { replaceRecentBlockhash: true })
    expect(replaced.err).toBeNull()
    expect(replaced.replacementBlockhash?.blockhash).toBe(chain.latestBlockhash().blockhash)
    expect(chain.getBalance(payer.address)).toBe(10_000_000_000n)
  })
})

describe('Chain.sameBlock', () => {
  test('transactions sent inside share one slot; the block comes after', async () => {
    const chain = new Chain({ genesisUnixS: GENESIS })
    const payer = await funded(chain)
    const start = chain.slot
    const signatures = await chain.sameBlock(async () => {
      const first = chain.send(await transfer(chain, payer, payer.address, 1n))
      const second = chain.send(await transfer(chain, payer, payer.address, 2n))
      return [first, second].map((outcome) => (outcome.ok ? outcome.signature : ''))
    })
    expect(signatures.map((signature) => chain.getTransaction(signature)?.slot)).toEqual([start, start])
    expect(chain.slot).toBe(start + 1n)
  })
})
