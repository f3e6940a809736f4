import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { type MemberOf, scopeLine, unmeasured } from '../src/rendering/answer-prose.ts'
import { testApp } from './support/app.ts'
import { artifactPath, checkView, describeWithBrowser, injectSolanaWallet, offlineBrowser } from './support/browser.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

// The service on the sandbox, as `npm start` runs it (its demo wallet is the sandbox's demo buyer), and a
// real headless Chromium that may reach nothing but the service: every other request is refused and counted.
const { sandbox, running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })

/** Asks the demo wallet to sign `requirements`. */
const demoPay = (requirements: Record<string, unknown>) =>
  fetch(`${running.url}/demo/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ x402Version: 2, requirements }),
  })
/** The service's Solana offer for a quick scan, from its 402. */
const offer = async () => {
  const challenge = await fetch(`${running.url}/scan/quick`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token_address: mintOf('blue-chip') }),
  })
  const required = JSON.parse(Buffer.from(challenge.headers.get('payment-required')!, 'base64').toString())
  return required.accepts.find((accept: { network: string }) => accept.network.startsWith('solana:'))
}

describe('the demo wallet (POST /demo/pay)', () => {
  test("signs one of the service's own offers", async () => {
    const response = await demoPay(await offer())
    expect(response.status).toBe(200)
    const body = (await response.json()) as { x402Version: number; payload: { transaction?: string } }
    expect(body.x402Version).toBe(2)
    expect(typeof body.payload.transaction).toBe('string')
  })

  test('refuses any other offer: another payee, another amount', async () => {
    const own = await offer()
    for (const changed of [
      { ...own, payTo: sandbox.file.buyer.address },
      { ...own, amount: '999999' },
    ]) {
      const response = await demoPay(changed)
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ code: 'INVALID_REQUEST' })
    }
  })

  test('an RPC that fails is a 503 saying nothing was signed, never a 500', async () => {
    const own = await offer()
    sandbox.faults.set('rpc', 'getLatestBlockhash', { kind: 'server_error' })
    try {
      const response = await demoPay(own)
      expect(response.status).toBe(503)
      expect(response.headers.get('retry-after')).toBe('5')
      expect(await response.json()).toMatchObject({
        code: 'UPSTREAM_UNAVAILABLE',
        message: expect.stringContaining('nothing was signed or charged'),
      })
    } finally {
      sandbox.faults.clear()
    }
  })

  test('is not found where no demo wallet is configured', async () => {
    const { app } = testApp()
    const response = await app.handle(
      new Request('http://localhost/demo/pay', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ x402Version: 2, requirements: await offer() }),
      }),
    )
    expect(response.status).toBe(404)
  })
})

describeWithBrowser('the web page in a real browser (headless Chromium, offline)', () => {
  const chrome = offlineBrowser(() => [running.url, sandbox.file.urls.rpc])
  const { outside, guard } = chrome

  /** Opens the page, picks the wallet `label`, scans `mint` and answers the status line once the call ended. */
  async function quickScanPaidWith(page: Page, label: string, mint: string): Promise<string | null> {
    await page.goto(`${running.url}/`)
    await page.locator('#wallet option', { hasText: label }).waitFor({ state: 'attached' })
    await page.selectOption('#wallet', { label })
    await page.fill('#mint', mint)
    await page.click('#scan')
    await page.waitForFunction(() => {
      const status = (globalThis as any).document.getElementById('status')
      return status.dataset.kind === 'done' || status.dataset.kind === 'error'
    })
    return page.locator('#status').textContent()
  }

  /** A fresh guarded page at `path`. */
  async function openPage(path: string): Promise<Page> {
    const page = await guard(await chrome.browser.newPage({ viewport: { width: 1280, height: 800 } }))
    await page.goto(`${running.url}${path}`)
    return page
  }

  test('a ticker is refused on the page, as the API refuses it, before any request', async () => {
    const page = await openPage('/')
    let scans = 0
    page.on('request', (request) => {
      if (request.url().endsWith('/scan/quick')) scans++
    })
    await page.fill('#mint', 'BONK')
    await page.click('#scan')
    await expect(page.locator('#status').textContent()).resolves.toContain('ticker')
    expect(await page.getAttribute('#mint', 'aria-invalid')).toBe('true')
    expect(scans).toBe(0)
    expect(await checkView(page, 'refused-ticker')).toEqual([])
    await page.close()
  }, 30_000)

  test('scan a mint, pay with the demo wallet, read the verdict; go deeper to the deep dive', async () => {
    const buyer = sandbox.file.buyer.address
    const before = await usdcOf(sandbox, buyer)
    const page = await openPage('/')
    expect(await page.locator('#wallet option').first().textContent()).toContain('Demo wallet')
    expect(await checkView(page, 'empty')).toEqual([])
    await page.fill('#mint', mintOf('wash-traded'))
    await page.click('#scan')
    await page.locator('#quick-card').waitFor({ timeout: 20_000 })
    expect(await page.locator('#grade').textContent()).toMatch(/^[A-F]$/)
    expect(await page.locator('#quick-card').textContent()).toContain('What decided it')
    expect(await page.locator('#status').textContent()).toContain('paid, transaction')
    expect(await checkView(page, 'quick-scan')).toEqual([])

    await page.click('#go-deep')
    await page.locator('#deep-card').waitFor({ timeout: 40_000 })
    expect(await page.locator('#recommendation').textContent()).toMatch(/^(AVOID|WATCH|DYOR|CONSIDER)$/)
    expect(await page.locator('#deep-card').textContent()).toContain('Wash trading')
    expect(await checkView(page, 'deep-dive')).toEqual([])
    await page.close()
    // 0.02 for the quick scan and 0.50 for the deep dive, from the demo buyer's sandbox USDC.
    expect(await usdcOf(sandbox, buyer)).toBe(before - 520_000n)
    expect(outside).toEqual([])
  }, 90_000)

  /** Where the card `id`, the status line and the focus are, as the page lays them out now. */
  async function placeOf(page: Page, id: string) {
    return page.evaluate((id) => {
      const window = globalThis as any
      const card = window.document.getElementById(id).getBoundingClientRect()
      const status = window.document.getElementById('status').getBoundingClientRect()
      return {
        focused: window.document.activeElement?.id ?? null,
        cardTop: card.top,
        statusTop: status.top,
        statusBottom: status.bottom,
        innerHeight: window.innerHeight,
        scrollY: window.scrollY,
      }
    }, id)
  }

  /** The ids the page carries more than once. */
  const duplicateIds = (page: Page) =>
    page.evaluate(() => {
      const ids = [...(globalThis as any).document.querySelectorAll('[id]')].map((node: { id: string }) => node.id)
      return ids.filter((id, index) => ids.indexOf(id) !== index)
    })

  test('a paid button pays once: a double click pays once and shows one card, in view and focused; asking again, even after a reload, pays nothing', async () => {
    const treasury = () => usdcOf(sandbox, sandbox.file.x402.solana.pay_to)
    const page = await openPage('/')
    const asked: string[] = []
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname
      if (request.method() === 'POST') asked.push(path)
    })
    /** Waits for the status line to say `label`'s answer was shown again without a payment. */
    const shownAgain = (label: string) =>
      page.waitForFunction((label) => {
        const text = (globalThis as any).document.getElementById('status').textContent as string
        return text.startsWith(label) && text.includes('no new payment')
      }, label)
    const paidAgain = (path: string) => asked.filter((asked) => asked === path).length
    const start = await treasury()

    await page.fill('#mint', mintOf('blue-chip'))
    await page.dblclick('#scan')
    await page.locator('#quick-card').waitFor({ timeout: 20_000 })
    await page.waitForFunction(() => !(globalThis as any).document.getElementById('scan').disabled)
    expect(paidAgain('/demo/pay')).toBe(1)
    expect(await treasury()).toBe(start + 20_000n)

    // Two clicks in one go, before the first call has answered: the second finds the button disabled.
    const disabledAfterClicks = await page.evaluate(() => {
      const button = (globalThis as any).document.getElementById('go-deep')
      button.click()
      button.click()
      return button.disabled && button.getAttribute('aria-busy') === 'true'
    })
    expect(disabledAfterClicks).toBe(true)
    await page.locator('#deep-card').waitFor({ timeout: 40_000 })
    await page.waitForFunction(() => !(globalThis as any).document.getElementById('go-deep').disabled)
    expect(await page.locator('.card#deep-card').count()).toBe(1)
    expect(paidAgain('/scan/deep')).toBe(2) // the challenge and the paid request: one call
    expect(paidAgain('/demo/pay')).toBe(2)
    expect(await treasury()).toBe(start + 520_000n)
    expect(await duplicateIds(page)).toEqual([])
    // The new card was below the fold: the page scrolled to it, focused it, and the status line is in sight above it.
    const place = await placeOf(page, 'deep-card')
    expect(place.focused).toBe('deep-card')
    expect(place.scrollY).toBeGreaterThan(0)
    expect(place.cardTop).toBeGreaterThanOrEqual(place.statusBottom)
    expect(place.cardTop).toBeLessThan(place.innerHeight)
    expect(place.statusTop).toBeGreaterThanOrEqual(0)
    expect(await page.locator('#status').textContent()).toContain('paid, transaction')
    expect(await checkView(page, 'paid-once')).toEqual([])

    // Asked again: shown again, from what this tab paid for.
    await page.evaluate(() => (globalThis as any).scrollTo(0, 0))
    await page.click('#go-deep')
    await shownAgain('Deep dive')
    expect((await placeOf(page, 'deep-card')).focused).toBe('deep-card')
    expect(await page.locator('.card#deep-card').count()).toBe(1)

    // A reload shows the cards this tab paid for; scanning the same mint again pays nothing either.
    const before = asked.length
    await page.reload()
    await page.locator('#deep-card').waitFor()
    expect(await page.inputValue('#mint')).toBe(mintOf('blue-chip'))
    expect(await page.locator('#status').textContent()).toContain('no new payment')
    await page.click('#scan')
    await shownAgain('Quick scan')
    await page.click('#go-deep')
    await shownAgain('Deep dive')
    expect(await page.locator('.card').count()).toBe(2)
    expect(asked.length).toBe(before)
    expect(await treasury()).toBe(start + 520_000n)

    // Another mint: its own quick scan, paid; the first mint's cards leave the screen.
    await page.fill('#mint', mintOf('wash-traded'))
    await page.click('#scan')
    await page.locator('#quick-card code', { hasText: mintOf('wash-traded') }).waitFor({ timeout: 20_000 })
    expect(await page.locator('.card').count()).toBe(1)
    expect(await treasury()).toBe(start + 540_000n)
    await page.close()
    expect(outside).toEqual([])
  }, 120_000)

  test('a payment the chain has not confirmed yet is presented again, never paid again — by the waiting page, and after a reload', async () => {
    const treasury = () => usdcOf(sandbox, sandbox.file.x402.solana.pay_to)
    const page = await openPage('/')
    let signed = 0
    page.on('request', (request) => {
      if (request.url().endsWith('/demo/pay')) signed++
    })
    const statusSays = (text: string) =>
      page.waitForFunction(
        (text) => ((globalThis as any).document.getElementById('status').textContent as string).includes(text),
        text,
        { timeout: 30_000 },
      )
    /** The facilitator sends the transfer but answers `settlement_pending`; the service cannot read it: 402 pending. */
    const unconfirmed = () => {
      sandbox.faults.set('facilitator', '/settle', { kind: 'settlement_pending' })
      sandbox.faults.set('rpc', 'getTransaction', { kind: 'server_error' })
    }
    const start = await treasury()
    try {
      // The page waits and presents the same payment again; once the chain can be read, it is answered.
      unconfirmed()
      await page.fill('#mint', mintOf('blue-chip'))
      await page.click('#scan')
      await statusSays('presenting the same payment again')
      expect(await page.isDisabled('#scan')).toBe(true)
      sandbox.faults.clear()
      await page.locator('#quick-card').waitFor({ timeout: 40_000 })
      expect(await page.locator('#status').textContent()).toContain('paid, transaction')
      expect(signed).toBe(1)
      expect(await treasury()).toBe(start + 20_000n)

      // Left while it waits: the payment sent is held in the tab, and asking again presents it.
      unconfirmed()
      await page.click('#go-deep')
      await statusSays('presenting the same payment again')
      await page.reload()
      sandbox.faults.clear()
      await page.click('#go-deep')
      await page.locator('#deep-card').waitFor({ timeout: 40_000 })
      expect(await page.locator('#status').textContent()).toContain('paid, transaction')
      expect(signed).toBe(2)
      expect(await treasury()).toBe(start + 520_000n)
      await page.close()
    } finally {
      sandbox.faults.clear()
    }
    expect(outside).toEqual([])
  }, 120_000)

  test('a Solana browser wallet (wallet standard) connects, signs in the page and pays with the official client', async () => {
    const page = await guard(await chrome.browser.newPage())
    const asked = await injectSolanaWallet(page, sandbox.file.buyer.keypair_path)
    const owner = { address: sandbox.file.buyer.address }
    const before = await usdcOf(sandbox, owner.address)
    expect(await quickScanPaidWith(page, 'Test Wallet (Solana)', mintOf('blue-chip'))).toContain('paid, transaction')
    expect(await page.locator('#grade').textContent()).toMatch(/^[A-F]$/)
    expect(asked.transactions).toBe(1)
    expect(await checkView(page, 'wallet-standard')).toEqual([])
    await page.close()
    expect(await usdcOf(sandbox, owner.address)).toBe(before - 20_000n)
    expect(outside).toEqual([])
  }, 60_000)

  test('an EVM browser wallet (EIP-6963) connects, signs the EIP-3009 payment and pays on Base', async () => {
    const { privateKeyToAccount } = await import('viem/accounts')
    const owner = privateKeyToAccount(sandbox.file.evm_buyer.private_key as `0x${string}`)
    const page = await guard(await chrome.browser.newPage())
    // The provider answers from this process, as an extension's does: the key never enters the page.
    const asked: string[] = []
    await page.exposeFunction('testEvmRequest', async (method: string, paramsJson: string) => {
      asked.push(method)
      const params = JSON.parse(paramsJson) as unknown[]
      if (method === 'eth_requestAccounts' || method === 'eth_accounts') return JSON.stringify([owner.address])
      if (method === 'eth_chainId') return JSON.stringify('0x7a69')
      if (method === 'eth_signTypedData_v4') {
        const { domain, types, primaryType, message } = JSON.parse(params[1] as string)
        const { EIP712Domain: _domain, ...rest } = types
        return JSON.stringify(await owner.signTypedData({ domain, types: rest, primaryType, message }))
      }
      throw new Error(`unsupported ${method}`)
    })
    await page.addInitScript(() => {
      const page = globalThis as any
      const provider = {
        request: async ({ method, params }: { method: string; params?: unknown[] }) =>
          JSON.parse(await page.testEvmRequest(method, JSON.stringify(params ?? []))),
        on: () => {},
        removeListener: () => {},
      }
      const announce = () =>
        page.dispatchEvent(
          new CustomEvent('eip6963:announceProvider', {
            detail: Object.freeze({
              info: {
                uuid: '00000000-0000-4000-8000-000000000000',
                name: 'Test EVM Wallet',
                icon: 'data:,',
                rdns: 'test.wallet',
              },
              provider,
            }),
          }),
        )
      page.addEventListener('eip6963:requestProvider', announce)
      announce()
    })
    const before = await sandbox.evm.usdcBalance(owner.address)
    expect(await quickScanPaidWith(page, 'Test EVM Wallet (EVM)', mintOf('blue-chip'))).toContain('paid, transaction')
    expect(asked).toContain('eth_signTypedData_v4')
    await page.close()
    expect(await sandbox.evm.usdcBalance(owner.address)).toBe(before - 20_000n)
    expect(outside).toEqual([])
  }, 60_000)

  /** The card's rows as the page shows them: label → value. */
  async function rowsOf(page: Page, card: string): Promise<Record<string, string>> {
    const rows = await page.$$eval(`${card} .row`, (nodes) =>
      nodes.map((node) => [
        node.querySelector('.label')?.textContent ?? '',
        node.querySelector('.value')?.textContent ?? '',
      ]),
    )
    return Object.fromEntries(rows)
  }

  test('an RPC fault: the card says "not measured" for every member the answer did not read, never LIVE or revoked; the scope in one line; the deep dive report too', async () => {
    // The demo wallet reads the asset's mint once, when it first signs: before the fault, as a wallet
    // that has paid before (this test alone, it would be refused 503 instead).
    expect((await demoPay(await offer())).status).toBe(200)
    // authority-live has a live mint authority: under the fault the page must not say so, nor "revoked".
    sandbox.faults.set('rpc', 'getAccountInfo', { kind: 'server_error' })
    try {
      const page = await openPage('/')
      await page.fill('#mint', mintOf('mint-authority-live'))
      const answered = page.waitForResponse((response) => response.url().endsWith('/scan/quick') && response.ok())
      await page.click('#scan')
      const scan = (await (await answered).json()) as { missing_fields: string[]; scope: { excludes: string[] } }
      await page.locator('#quick-card').waitFor({ timeout: 20_000 })
      expect(scan.missing_fields).toContain('mint')
      // Each row the card shows, by the member it shows: not measured exactly when the answer says so.
      const shown: Record<string, MemberOf<'quick_scan'>> = {
        'Mint authority': 'mint_authority_revoked',
        'Freeze authority': 'freeze_authority_revoked',
        'Top 10 holders': 'top_10_holder_pct',
        Liquidity: 'liquidity_check',
        LP: 'lp_status',
      }
      const rows = await rowsOf(page, '#quick-card')
      for (const [label, member] of Object.entries(shown))
        expect(`${label}: ${rows[label]}`).toBe(
          unmeasured(scan, 'quick_scan', member)
            ? `${label}: not measured`
            : `${label}: ${rows[label] === 'not measured' ? 'a value' : rows[label]}`,
        )
      const card = (await page.locator('#quick-card').textContent())!
      expect(card).not.toMatch(/\bLIVE\b|\brevoked\b/)
      expect(await page.locator('#scope').textContent()).toBe(scopeLine(scan.scope))
      expect(card).toContain('Behaviour (insiders')
      expect(await checkView(page, 'quick-scan-rpc-fault')).toEqual([])

      await page.click('#go-deep')
      await page.locator('#deep-card').waitFor({ timeout: 40_000 })
      const report = (await page.locator('#deep-card details').textContent())!
      expect(report).toContain('Mint authority not measured, freeze authority not measured')
      expect(report).not.toMatch(/authority (revoked|live)/)
      expect(await checkView(page, 'deep-dive-rpc-fault')).toEqual([])
      await page.close()
    } finally {
      sandbox.faults.clear()
    }
    expect(outside).toEqual([])
  }, 90_000)

  test('market intel of a token no pool trades: NO MARKET first, no $0 shown', async () => {
    const page = await openPage('/')
    await page.fill('#mint', mintOf('hostile-token-2022'))
    await page.click('#scan')
    await page.locator('#quick-card').waitFor({ timeout: 20_000 })
    await page.click('#go-intel')
    await page.locator('#intel-card').waitFor({ timeout: 20_000 })
    expect(await page.locator('#intel-card .badge').textContent()).toBe('NO MARKET')
    expect(Object.keys(await rowsOf(page, '#intel-card'))).toEqual(['Market'])
    const card = (await page.locator('#intel-card').textContent())!
    expect(card).not.toMatch(/\$0(?![.\d])/)
    expect(await checkView(page, 'market-intel-no-market')).toEqual([])
    await page.close()
    expect(outside).toEqual([])
  }, 60_000)

  test('/docs renders the API reference offline, from the service alone', async () => {
    const page = await openPage('/docs')
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(String(error)))
    // The viewer draws each operation from /openapi.json: its summary, as the manifest writes it.
    await page.getByText('Liveness and the state of each dependency').first().waitFor({ timeout: 30_000 })
    const text = await page.locator('body').textContent()
    // Every group of routes (scanners, trade, mcp, web) is listed; each draws when opened. The sidebar
    // labels a group for screen readers as `scannersOpen Group` (Scalar 1.46, the last on Node 20) or
    // `Group - scanners` (1.7x).
    for (const group of ['discovery', 'scanners', 'trade', 'mcp', 'web']) {
      expect(text).toMatch(new RegExp(`${group}(Open|Close) Group|Group - ${group}`))
    }
    expect(errors).toEqual([])
    await page.screenshot({ path: artifactPath('docs.png') })
    await page.close()
    expect(outside).toEqual([])
  }, 60_000)
})
