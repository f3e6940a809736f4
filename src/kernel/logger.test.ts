import { expect, test } from 'bun:test'
import { urlForLogs } from './logger.ts'

// Providers carry their key in the URL (Helius `?api-key=`, QuickNode and Triton a path token): a URL
// shown in a log line or the doctor's advice keeps its origin only.
test('a URL shown in logs keeps its origin, never a key in its query, path or userinfo', () => {
  expect(urlForLogs('https://mainnet.helius-rpc.com/?api-key=SECRET')).toBe('https://mainnet.helius-rpc.com/?…')
  expect(urlForLogs('wss://mainnet.helius-rpc.com/?api-key=SECRET')).toBe('wss://mainnet.helius-rpc.com/?…')
  expect(urlForLogs('https://x.solana-mainnet.quiknode.pro/TOKEN/')).toBe('https://x.solana-mainnet.quiknode.pro/…')
  expect(urlForLogs('https://user:SECRET@rpc.example.com/a?b=c')).toBe('https://rpc.example.com/…?…')
  expect(urlForLogs('http://127.0.0.1:8899')).toBe('http://127.0.0.1:8899')
  expect(urlForLogs('not a url SECRET')).toBe('(not a URL)')
})
