import { expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { WATCH_SIGN_IN_STATEMENT } from '../plugins/web/page.ts'
import { SIGN_IN_STATEMENT } from '../src/payments/answer-replay.ts'
import { checkView, describeWithBrowser, injectSolanaWallet, offlineBrowser, paidAnswer } from './support/browser.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

// The position guard on the web page (issue 34 §1): "Watch this token" on a token's card, paid with the
// demo wallet for the hours chosen (hours × the unit on chain), the alerts of the sandbox's rug controls
// shown live in the panel, a reload showing the panel again without paying, "Stop watching". The
// service runs on the sandbox (its watch engine started), the page in a headless Chromium that may
// reach nothing but the service.
const { sandbox, running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })

type Json = Record<string, any>

const treasury = () => usdcOf(sandbox, sandbox.file.x402.solana.pay_to)

/** POST /watch's price per hour in USDC's smallest unit, as /openapi.json publishes it. */
async function hourUnit(): Promise<bigint> {
  const spec = (await (await fetch(`${running.url}/openapi.json`)).json()) as Json
  const amount = spec.paths['/watch'].post['x-payment-info'].per_unit.amount as string
  return BigInt(Math.round(Number(amount) * 1e6))
}

const post = (path: string, body: unknown) =>
  fetch(`${running.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

describeWithBrowser('the position guard on the page (headless Chromium, offline)', () => {
  const chrome = offlineBrowser(() => [running.url, sandbox.file.urls.rpc])
  const { outside, guard } = chrome

  const alerts = (page: Page, kind: string) => page.locator(`#watch-alerts li[data-kind="${kind}"]`)

  test('watch the rug-ready token with the demo wallet: paid hours × unit, alerts live, a reload pays nothing, stop', async () => {
    const mint = mintOf('rug-ready')
    const page = await chrome.browser.newPage({ viewport: { width: 1280, height: 1000 } })
    const posted: string[] = []
    const challenged: Json[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST') posted.push(new URL(request.url()).pathname)
    })
    page.on('response', (response) => {
      const header = response.headers()['payment-required']
      if (new URL(response.url()).pathname === '/watch' && response.status() === 402 && header)
        challenged.push(JSON.parse(Buffer.from(header, 'base64').toString()))
    })
    await guard(page)
    await page.goto(`${running.url}/t/${mint}`)

    // The control on the token's card: its price per hour as the manifest says it, the route's hours.
    const unit = await hourUnit()
    expect(await page.locator('#token-view .watch-button').textContent()).toBe(
      `Watch this token · ${Number(unit) / 1e6} USD/h`,
    )
    expect(
      await page
        .locator('#token-view .watch-hours option')
        .evaluateAll((options) => options.map((option) => (option as unknown as { value: string }).value)),
    ).toEqual(['1', '6', '24', '168'])
    await page.locator('#token-view .watch-hours').selectOption('6')

    const start = await treasury()
    const created = await paidAnswer(page, '#token-view .watch-button', '/watch', '#watch-card')
    expect(created.watch_id).toStartWith('w_')
    // The 402 asked 6 × the unit, and exactly that reached the treasury.
    expect(challenged.map((required) => required.accepts[0].amount)).toContain(String(6n * unit))
    expect(await treasury()).toBe(start + 6n * unit)
    await page.locator('#watch-state', { hasText: 'Watching' }).waitFor({ timeout: 20_000 })
    expect(await page.getAttribute('#watch-alerts', 'aria-live')).toBe('polite')

    // The sandbox mints more and pulls liquidity: each alert appears in the panel.
    await sandbox.rugs['mint-more'](mint)
    await alerts(page, 'mint_used').first().waitFor({ timeout: 30_000 })
    await sandbox.rugs['pull-liquidity'](mint, { percent: 80 })
    await alerts(page, 'liquidity_removed').first().waitFor({ timeout: 30_000 })
    const first = alerts(page, 'mint_used').first()
    expect(await first.locator('.severity').textContent()).toBe('critical')
    expect(await first.textContent()).toContain('transaction')
    expect(await first.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-/)
    // The demo wallet cannot sign an exit on the page: no button.
    expect(await page.locator('.watch-sign-exit').count()).toBe(0)

    expect(await checkView(page, 'watch')).toEqual([])

    // A reload: the panel again with its alerts (read back from the watch), nothing paid, and still live.
    const paidBefore = await treasury()
    const postsBefore = posted.filter((path) => path === '/watch').length
    await page.reload()
    await page.locator('#watch-card').waitFor()
    await page.locator('#watch-state', { hasText: 'Watching' }).waitFor({ timeout: 20_000 })
    expect(await page.getAttribute('#watch-card', 'data-watch')).toBe(created.watch_id)
    expect(await alerts(page, 'mint_used').count()).toBe(1)
    expect(await alerts(page, 'liquidity_removed').count()).toBe(1)
    await sandbox.rugs['mint-more'](mint)
    await alerts(page, 'mint_used').nth(1).waitFor({ timeout: 30_000 })
    expect(posted.filter((path) => path === '/watch').length).toBe(postsBefore)
    expect(await treasury()).toBe(paidBefore)

    // Stop watching: signed in, no refund said, the panel ended; a reload shows it stopped.
    await page.click('#watch-stop')
    await page.locator('#watch-state[data-ended="true"]').waitFor({ timeout: 20_000 })
    expect(await page.locator('#watch-state').textContent()).toContain('not refunded')
    expect(await page.locator('#status').textContent()).toContain('no refund')
    await page.reload()
    await page.locator('#watch-state[data-ended="true"]', { hasText: 'cancelled' }).waitFor({ timeout: 20_000 })
    expect(await treasury()).toBe(paidBefore)
    await page.close()
    expect(outside).toEqual([])
  }, 180_000)

  test('a wallet-standard Solana wallet pays for a watch, signs in to follow it (solana:signMessage) and to stop it', async () => {
    const mint = mintOf('rug-ready')
    const context = await chrome.browser.newContext()
    await guard(context)
    const asked = await injectSolanaWallet(context, sandbox.file.buyer.keypair_path)
    const page = await context.newPage()
    await page.goto(`${running.url}/t/${mint}`)
    await page.locator('#wallet option', { hasText: 'Test Wallet (Solana)' }).waitFor({ state: 'attached' })
    await page.selectOption('#wallet', { label: 'Test Wallet (Solana)' })
    await page.locator('#token-view .watch-hours').selectOption('1')
    const start = await treasury()
    const created = await paidAnswer(page, '#token-view .watch-button', '/watch', '#watch-card')
    expect(asked.transactions).toBe(1)
    expect(await treasury()).toBe(start + (await hourUnit()))
    await page.locator('#watch-state', { hasText: 'Watching' }).waitFor({ timeout: 20_000 })
    // The wallet signed the page's sign-in for this watch's own URL, with the watch statement.
    expect(asked.messages).toHaveLength(1)
    expect(asked.messages[0]).toContain(WATCH_SIGN_IN_STATEMENT)
    expect(asked.messages[0]).toContain(`${running.url}/watch/${created.watch_id}`)
    await sandbox.rugs['mint-more'](mint)
    await alerts(page, 'mint_used').first().waitFor({ timeout: 30_000 })
    await page.click('#watch-stop')
    await page.locator('#watch-state[data-ended="true"]').waitFor({ timeout: 20_000 })
    expect(asked.messages).toHaveLength(2)
    expect(asked.transactions).toBe(1)
    await context.close()
    expect(outside).toEqual([])
  }, 120_000)

  test('the quick scan card carries the watch too, with the same price per hour', async () => {
    const page = await chrome.browser.newPage()
    await guard(page)
    await page.goto(`${running.url}/`)
    await page.fill('#mint', mintOf('blue-chip'))
    await paidAnswer(page, '#scan', '/scan/quick', '#quick-card')
    expect(await page.locator('#quick-card .watch-button').textContent()).toBe(
      `Watch this token · ${Number(await hourUnit()) / 1e6} USD/h`,
    )
    expect(await page.locator('#quick-card label', { hasText: 'Watch for' }).count()).toBe(1)
    await page.close()
    expect(outside).toEqual([])
  }, 60_000)

  test("the demo wallet signs in to a watch's pages with the watch statement only, and to no other free route", async () => {
    const network = sandbox.file.x402.solana.network
    const info = (path: string, statement: string) => ({
      domain: new URL(running.url).host,
      uri: `${running.url}${path}`,
      statement,
      version: '1',
      nonce: crypto.randomUUID().replaceAll('-', ''),
      issuedAt: new Date().toISOString(),
    })
    const signIn = (path: string, statement: string) =>
      post('/demo/sign-in', { info: info(path, statement), chainId: network })
    expect((await signIn('/watch/w_abc', WATCH_SIGN_IN_STATEMENT)).status).toBe(200)
    expect((await signIn('/watch/w_abc/events', WATCH_SIGN_IN_STATEMENT)).status).toBe(200)
    for (const [path, statement, says] of [
      ['/watch/w_abc', SIGN_IN_STATEMENT, 'statement'],
      ['/scan/quick', WATCH_SIGN_IN_STATEMENT, 'statement'],
      ['/health', WATCH_SIGN_IN_STATEMENT, '/health'],
    ] as const) {
      const refused = await signIn(path, statement)
      expect(refused.status).toBe(400)
      expect(await refused.json()).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining(says) })
    }
  }, 30_000)
})
