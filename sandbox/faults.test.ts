import { describe, expect, test } from 'bun:test'
import { FaultPlan, withoutMembers } from './faults.ts'

const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } })

describe('drop_members', () => {
  test('SANDBOX_FAULTS declares it with the members to leave out, and refuses it without them', () => {
    const plan = FaultPlan.fromEnv(
      '{"jupiter:/swap/v2/build": {"kind": "drop_members", "members": ["priceImpactPct"]}}',
    )
    expect(plan.match('jupiter', '/swap/v2/build')).toEqual({ kind: 'drop_members', members: ['priceImpactPct'] })
    for (const members of [undefined, [], 'priceImpactPct', [1]]) {
      const value = JSON.stringify({ 'jupiter:/swap/v2/order': { kind: 'drop_members', members } })
      expect(() => FaultPlan.fromEnv(value)).toThrow('needs "members"')
    }
  })

  test('the answer less the named members; a refusal or a non-object answer as it was', async () => {
    const fault = { kind: 'drop_members' as const, members: ['priceImpact', 'priceImpactPct'] }
    const trimmed = await withoutMembers(fault, json({ outAmount: '5', priceImpact: -0.1, priceImpactPct: '-0.001' }))
    expect(await trimmed.json()).toEqual({ outAmount: '5' })
    const refusal = json({ error: 'Failed to get quotes', priceImpact: 1 }, 400)
    expect(await (await withoutMembers(fault, refusal)).json()).toEqual({
      error: 'Failed to get quotes',
      priceImpact: 1,
    })
    expect(await (await withoutMembers(fault, json([{ priceImpact: 1 }]))).json()).toEqual([{ priceImpact: 1 }])
    // Another fault, or none, leaves the answer alone.
    expect(await (await withoutMembers(undefined, json({ priceImpact: 1 }))).json()).toEqual({ priceImpact: 1 })
  })
})
