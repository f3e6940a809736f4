import { describe, expect, test } from 'bun:test'
import completeData from '../../test/fixtures/recorded/pump/program-data-complete-event-2026-08-21.json'
import sellV2Data from '../../test/fixtures/recorded/pump/program-data-trade-sellv2-2026-08-20.json'
import createV2Logs from '../../test/fixtures/recorded/pump/logs-createv2-and-buy-2026-10-03.json'
import createNotification from '../../test/fixtures/recorded/pump/logsNotification-create-and-buy-2024-12-27.json'
import sellTransaction from '../../test/fixtures/recorded/pump/getTransaction-trade-sell-2025-02-01.json'
import { decodePumpEvent, encodePumpEventLog, pumpEventsInLogs, type TradeEvent } from './pump-events.ts'

// Real pump.fun events: recorded logs and payloads of 2024-12 to 2026-10 (test/fixtures/recorded/pump/).
describe('pump.fun events from recorded mainnet logs', () => {
  test('a 2025 sell (the 10-field layout) decodes as its recorder asserted', () => {
    const logs = (sellTransaction.answer as { meta: { logMessages: string[] } }).meta.logMessages
    const [event] = pumpEventsInLogs(logs)
    expect(event).toEqual({
      kind: 'trade',
      mint: '5iA1jhWN6kJRZaASzNZ4K7vvwiR3XykUiJKiAgWSpump',
      solAmount: 212_700_228n,
      tokenAmount: 967_931_120_978n,
      isBuy: false,
      user: '7PQ3nyAJHXiFQd5c8HgRBMYLF748MQKgq3uYfTuFioHX',
      timestamp: 1_738_395_090,
      virtualSolReserves: 83_998_799_473n,
      virtualTokenReserves: 383_219_762_808_254n,
      realSolReserves: 53_998_799_473n,
      realTokenReserves: 103_319_762_808_254n,
    })
  })

  test('a 2024 create-and-buy notification: the create (6-field layout), then the buy', () => {
    const logs = (createNotification.answer as { params: { result: { value: { logs: string[] } } } }).params.result
      .value.logs
    const events = pumpEventsInLogs(logs)
    expect(events.map((event) => event.kind)).toEqual(['create', 'trade'])
    const [create, buy] = events
    expect(create).toMatchObject({ kind: 'create', creator: null, timestamp: null })
    expect((buy as TradeEvent).isBuy).toBe(true)
    expect((buy as TradeEvent).mint).toBe((create as { mint: string }).mint)
  })

  test('a 2026 create v2 and buy: the newer layouts (and bytes the IDL does not describe yet) still decode', () => {
    const events = pumpEventsInLogs((createV2Logs.answer as { logs: string[] }).logs)
    const create = events.find((event) => event.kind === 'create')
    expect(create).toMatchObject({ kind: 'create', tokenTotalSupply: 1_000_000_000_000_000n })
    expect(events.some((event) => event.kind === 'trade' && event.isBuy)).toBe(true)
  })

  test('a 2026 sell v2 payload and a complete event', () => {
    expect(decodePumpEvent(Buffer.from(sellV2Data.answer as string, 'base64'))).toMatchObject({
      kind: 'trade',
      isBuy: false,
    })
    expect(decodePumpEvent(Buffer.from(completeData.answer as string, 'base64'))).toMatchObject({ kind: 'complete' })
  })

  test('the encoder writes what the decoder reads (the sandbox emits these)', () => {
    const trade: TradeEvent = {
      kind: 'trade',
      mint: '5iA1jhWN6kJRZaASzNZ4K7vvwiR3XykUiJKiAgWSpump',
      solAmount: 1n,
      tokenAmount: 2n,
      isBuy: true,
      user: '7PQ3nyAJHXiFQd5c8HgRBMYLF748MQKgq3uYfTuFioHX',
      timestamp: 1_700_000_000,
      virtualSolReserves: 30_000_000_001n,
      virtualTokenReserves: 1_072_999_999_999_998n,
      realSolReserves: 1n,
      realTokenReserves: 793_099_999_999_998n,
    }
    expect(pumpEventsInLogs([encodePumpEventLog(trade)])).toEqual([trade])
  })

  test('other programs’ data and damaged payloads are not events', () => {
    expect(
      pumpEventsInLogs(['Program data: AAAAAAAAAAAAAAAA', 'Program log: Instruction: Buy', 'Program data: vdt/007m']),
    ).toEqual([])
  })
})
