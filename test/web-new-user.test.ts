import { expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import {
  artifactPath,
  checkView,
  describeWithBrowser,
  injectSolanaWallet,
  offlineBrowser,
  paidAnswer,
  VIEW_WIDTHS,
} from './support/browser.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

// What a new user clicking through the page found (issue 32): the rate limit met by clicking through the
// catalogue, radar tables on a phone, a reload that lost paid answers, the token page on a phone, the LP
// locks over time, feeds without a refresh, selects without labels, the favicon. The service runs on the
// sandbox with a small rate-limit burst (as a busy public service might), the page in a real headless
// Chromium that may reach nothing but the service.
const BURST = 6
const { sandbox, running, mintOf } = await liveService({
  RATE_LIMIT_SCANNER_BURST: String(BURST),
  RATE_LIMIT_SCANNER_PER_MINUTE: '120',
})

type Json = Record<string, any>

const treasury = () => usdcOf(sandbox, sandbox.file.x402.solana.pay_to)

/** Each priced route's price in USDC's smallest unit, as /openapi.json publishes it. */
async function priceOf(route: string): Promise<bigint> {
  const spec = (await (await fetch(`${running.url}/openapi.json`)).json()) as Json
  const [method, path] = route.split(' ') as [string, string]
  const amount = spec.paths[path][method.toLowerCase()]['x-payment-info'].price.amount as string
  return BigInt(Math.round(Number(amount) * 1e6))
}

/** Spends the rate limit's bucket of this machine's address (unpaid calls: each answered 402 until it is empty). */
async function drainRateLimit(): Promise<number> {
  for (let sent = 1; sent <= BURST * 4; sent++) {
    const response = await fetch(`${running.url}/scan/trending`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    await response.arrayBuffer()
    if (response.status === 429) return Number(response.headers.get('retry-after'))
  }
  throw new Error('the rate limit never answered 429')
}

/** POSTs `body` to `path` on the service, waiting out this file's small rate limit. */
async function post(path: string, body: unknown): Promise<Response> {
  for (;;) {
    const response = await fetch(`${running.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (response.status !== 429) return response
    await Bun.sleep(Number(response.headers.get('retry-after')) * 1000)
  }
}

describeWithBrowser('the page as a new user clicks through it (headless Chromium, offline)', () => {
  const chrome = offlineBrowser(() => [running.url, sandbox.file.urls.rpc])
  const { outside, guard } = chrome

  /** A fresh page at `path` (the viewport `width` wide) that may load only from the service; `posts` collects every POST's path. */
  async function openPage(path: string, posts: string[] = [], width = 1100): Promise<Page> {
    const page = await chrome.browser.newPage({ viewport: { width, height: width < 600 ? 700 : 1200 } })
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(new URL(request.url()).pathname)
    })
    await guard(page)
    await page.goto(`${running.url}${path}`)
    return page
  }

  const statusText = (page: Page) => page.locator('#status').textContent()

  test('the rate limit: the page says it is busy, waits the Retry-After and retries; a path is challenged once, then paid straight away', async () => {
    const page = await openPage('/')
    /** The answers to the quick scan's path the page got past the rate limit (its status each). */
    const scans: number[] = []
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/scan/quick' && response.status() !== 429) scans.push(response.status())
    })
    const start = await treasury()
    const retryAfter = await drainRateLimit()
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    const said: string[] = []
    const watching = setInterval(async () => {
      const text = await statusText(page).catch(() => null)
      if (text && !said.includes(text)) said.push(text)
    }, 100)
    try {
      await paidAnswer(page, '#go-trending', '/scan/trending', '#trending-card')
    } finally {
      clearInterval(watching)
    }
    expect(said.some((text) => /^Trending: the service is busy, retrying in \d+ s/.test(text))).toBe(true)
    expect(await statusText(page)).toContain('paid, transaction')
    expect(await treasury()).toBe(start + (await priceOf('POST /scan/trending')))

    // The quick scan of two mints: the first reads the challenge (402) then pays; the second pays straight away.
    for (const mint of [mintOf('blue-chip'), mintOf('wash-traded')]) {
      await page.fill('#mint', mint)
      await paidAnswer(page, '#scan', '/scan/quick', `#quick-card code:text("${mint}")`)
    }
    expect(scans).toEqual([402, 200, 200])
    await page.close()
    expect(outside).toEqual([])
  }, 120_000)

  test('four feeds clicked at once against the limit: the page waits it out together, and each is answered and paid once', async () => {
    const page = await openPage('/')
    const start = await treasury()
    await drainRateLimit()
    for (const id of ['#go-trending', '#go-radar', '#go-launches', '#go-graduating']) await page.click(id)
    for (const card of ['#trending-card', '#radar-card', '#launch-card', '#graduation-card'])
      await page.locator(card).waitFor({ timeout: 60_000 })
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('button[aria-busy]').length === 0)
    const prices = await Promise.all(
      ['POST /scan/trending', 'POST /signal/radar', 'POST /launch/radar', 'POST /graduation/radar'].map(priceOf),
    )
    expect(await treasury()).toBe(start + prices.reduce((a, b) => a + b))
    await page.close()
    expect(outside).toEqual([])
  }, 120_000)

  test('a reload draws again every answer paid for in this tab — exit check, news, wallet intel, the feeds, the trade idea — with no request', async () => {
    const posts: string[] = []
    const mint = mintOf('wash-traded')
    const page = await openPage(`/t/${mint}`, posts)
    await paidAnswer(page, '#token-view [data-view="exit"]', '/exit/check', '#exit-card')
    await paidAnswer(page, '#token-view [data-view="news"]', '/news/pulse', '#news-card')
    await page.fill('#wallet-address', sandbox.file.buyer.address)
    const wallet = await paidAnswer(page, '#wallet-go', '/wallet/intel', '#wallet-card')
    // A wallet that closed no position: its realized profit is "none", in no colour (not a green $0).
    expect(wallet.closed_positions).toBe(0)
    const profit = page.locator('#wallet-card .row', { hasText: 'Realized profit' }).locator('.value')
    expect(await profit.textContent()).toBe('none (no position closed)')
    expect(await profit.getAttribute('class')).not.toMatch(/good|bad/)
    await paidAnswer(page, '#go-radar', '/signal/radar', '#radar-card')
    await paidAnswer(page, '#go-suggest', '/trade/suggest', '#suggest-card')
    const cards = ['#exit-card', '#news-card', '#wallet-card', '#radar-card', '#suggest-card']
    const before = await Promise.all(cards.map((card) => page.locator(card).textContent()))
    const spent = await treasury()

    posts.length = 0
    await page.goto(`${running.url}/t/${mint}`)
    for (const card of cards) await page.locator(card).waitFor({ timeout: 5_000 })
    const after = await Promise.all(cards.map((card) => page.locator(card).textContent()))
    expect(after).toEqual(before)
    // The exit curve is drawn again from the checks held.
    expect(await page.locator('#exit-card [data-picture="exit"]').count()).toBe(1)
    expect(await statusText(page)).toContain('no new payment')
    expect(posts).toEqual([])
    expect(await treasury()).toBe(spent)
    expect(await checkView(page, 'reload-restored')).toEqual([])
    await page.close()
    expect(outside).toEqual([])
  }, 150_000)

  test('the token page on a phone: the token and its verdict area on the first screen; its grade there once scanned', async () => {
    const mint = mintOf('blue-chip')
    const page = await openPage(`/t/${mint}`, [], VIEW_WIDTHS.phone)
    const firstScreen = page.viewportSize()!.height
    const view = await page.locator('#token-view').boundingBox()
    expect(view!.y).toBeLessThan(firstScreen / 2)
    const grade = await page.locator('#token-grade').boundingBox()
    expect(grade!.y + grade!.height).toBeLessThan(firstScreen)
    const scan = page.locator('#token-view [data-view="quick-scan"]')
    const button = await scan.boundingBox()
    expect(button!.y + button!.height).toBeLessThan(firstScreen)
    await page.screenshot({ path: artifactPath('token-page-phone-first-screen.png') })
    expect(await checkView(page, 'token-page-phone')).toEqual([])

    await paidAnswer(page, '#token-view [data-view="quick-scan"]', '/scan/quick', '#quick-card')
    await page.reload()
    await page.locator('#quick-card').waitFor()
    await page.evaluate(() => (globalThis as any).scrollTo(0, 0))
    const badge = await page.locator('#grade').boundingBox()
    expect(badge!.y + badge!.height).toBeLessThan(firstScreen)
    await page.screenshot({ path: artifactPath('token-page-phone-graded.png') })
    await page.close()
    expect(outside).toEqual([])
  }, 90_000)

  test("on the token page the graded quick scan takes the token view's place at once: one card, one set of buttons, one exit-check form", async () => {
    const page = await openPage(`/t/${mintOf('sniped-launch')}`)
    expect(await page.locator('#token-view').count()).toBe(1)
    await paidAnswer(page, '#token-view [data-view="quick-scan"]', '/scan/quick', '#quick-card')
    // No reload: the "not graded yet" card is gone, the graded one is first, where it was.
    expect(await page.locator('#token-view').count()).toBe(0)
    expect(await page.locator('#results').textContent()).not.toContain('Not graded yet')
    expect(await page.locator('#results > .card').first().getAttribute('id')).toBe('quick-card')
    expect(await page.locator('#results [data-view="exit"]').count()).toBe(1)
    expect(await page.locator('#results .exit-size').count()).toBe(1)
    expect(await page.locator('#results .exit-slider').count()).toBe(1)
    expect(await page.locator('#results button', { hasText: 'Market intel' }).count()).toBe(1)
    expect(await page.locator('#results button', { hasText: 'Quick scan' }).count()).toBe(0)
    await page.close()
    expect(outside).toEqual([])
  }, 60_000)

  test('Back and Forward go between the tokens scanned, each drawn from the answers held (nothing paid); scanning a held token again draws all its cards', async () => {
    const posts: string[] = []
    const page = await openPage('/', posts)
    const [a, b] = [mintOf('locked-lp'), mintOf('blue-chip')]
    await page.fill('#mint', a)
    await paidAnswer(page, '#scan', '/scan/quick', `#quick-card code:text("${a}")`)
    await paidAnswer(page, '#go-intel', '/market/intel', '#intel-card')
    await page.fill('#quick-card .exit-size', '5')
    await paidAnswer(page, '#quick-card [data-view="exit"]', '/exit/check', '#exit-card')
    await page.fill('#mint', b)
    await paidAnswer(page, '#scan', '/scan/quick', `#quick-card code:text("${b}")`)
    expect(new URL(page.url()).pathname).toBe(`/t/${b}`)
    expect(await page.locator('#intel-card').count()).toBe(0)
    const spent = await treasury()
    posts.length = 0

    // Back: A's page, its quick scan, market intel and exit check drawn again; Forward: B's.
    await page.goBack()
    expect(new URL(page.url()).pathname).toBe(`/t/${a}`)
    await page.locator(`#quick-card code:text("${a}")`).waitFor({ timeout: 5_000 })
    await page.locator('#intel-card').waitFor({ timeout: 5_000 })
    await page.locator('#exit-card').waitFor({ timeout: 5_000 })
    await page.goForward()
    expect(new URL(page.url()).pathname).toBe(`/t/${b}`)
    await page.locator(`#quick-card code:text("${b}")`).waitFor({ timeout: 5_000 })
    expect(await page.locator('#intel-card').count()).toBe(0)
    // Back once more: the page the person started on, not another site.
    await page.goBack()
    await page.goBack()
    expect(new URL(page.url()).pathname).toBe('/')
    await page.goForward()
    await page.goForward()
    expect(new URL(page.url()).pathname).toBe(`/t/${b}`)

    // A scanned again from the form: every card held for it, as a reload draws them.
    await page.fill('#mint', a)
    await page.click('#scan')
    await page.locator(`#quick-card code:text("${a}")`).waitFor({ timeout: 5_000 })
    await page.locator('#intel-card').waitFor({ timeout: 5_000 })
    await page.locator('#exit-card').waitFor({ timeout: 5_000 })
    expect(posts).toEqual([])
    expect(await treasury()).toBe(spent)
    await page.close()
    expect(outside).toEqual([])
  }, 90_000)

  test("the LP's locks over time: dated unlocks on an axis, now marked, the burned share permanent — as the deep dive's LP finding has them", async () => {
    const page = await openPage(`/t/${mintOf('locked-lp')}`)
    const dive = await paidAnswer(page, '#token-view [data-view="deep-dive"]', '/scan/deep', '#deep-card')
    const finding = (dive.factors as Json[]).find(
      (item) => String(item.code).startsWith('LP_') && typeof item.evidence?.burned_pct === 'number',
    )!
    expect(finding).toBeDefined()
    const unlocks = finding.evidence.unlocks as { inDays: number; pct: number; program: string }[]
    expect(unlocks.length).toBeGreaterThan(0)
    const figure = page.locator('#deep-card [data-picture="lp-timeline"]')
    const values = JSON.parse((await figure.getAttribute('data-values'))!) as Json
    expect(values.burned_pct).toBe(finding.evidence.burned_pct)
    expect(values.permanent_locked_pct).toBe(finding.evidence.permanent_locked_pct)
    expect(values.unlocks.map((unlock: Json) => [unlock.in_days, unlock.pct, unlock.program])).toEqual(
      unlocks.map((unlock) => [unlock.inDays, unlock.pct, unlock.program]),
    )
    // The date drawn is the date the finding states (unlock_date, from the same days).
    expect(values.unlocks.at(-1).date).toBe(finding.evidence.unlock_date)
    expect(await figure.locator('table').textContent()).toContain(`Unlocks ${finding.evidence.unlock_date}`)
    expect(await figure.locator('svg text', { hasText: /^now / }).count()).toBe(1)
    expect(await figure.locator('svg text', { hasText: finding.evidence.unlock_date }).count()).toBe(1)
    await figure.screenshot({ path: artifactPath('lp-timeline.png') })
    expect(await checkView(page, 'lp-timeline')).toEqual([])
    await page.setViewportSize({ width: VIEW_WIDTHS.phone, height: 800 })
    await figure.screenshot({ path: artifactPath('lp-timeline-phone.png') })
    await page.close()
    expect(outside).toEqual([])
  }, 90_000)

  test('a held feed has a Refresh button with its price: it pays for a new answer, disabled while it runs', async () => {
    const posts: string[] = []
    const page = await openPage('/', posts)
    await paidAnswer(page, '#go-trending', '/scan/trending', '#trending-card')
    const price = await priceOf('POST /scan/trending')
    const refresh = page.locator('#refresh-trending')
    expect(await refresh.textContent()).toBe(`Refresh · ${Number(price) / 1e6} USD`)
    const start = await treasury()
    posts.length = 0
    const busy = await refresh.evaluate((button: any) => {
      button.click()
      button.click()
      return button.disabled && button.getAttribute('aria-busy') === 'true'
    })
    expect(busy).toBe(true)
    await page.waitForFunction(() => {
      const button = (globalThis as any).document.getElementById('refresh-trending')
      return (
        button && !button.disabled && /answered/.test((globalThis as any).document.getElementById('status').textContent)
      )
    })
    // One picture of what happened, so a failure shows all of it: one payment signed, one charged, one card.
    expect({
      signed: posts.filter((path) => path === '/demo/pay').length,
      charged: (await treasury()) - start,
      cards: await page.locator('#trending-card').count(),
      status: await statusText(page),
      posts,
    }).toMatchObject({ signed: 1, charged: price, cards: 1 })
    await page.close()
    expect(outside).toEqual([])
  }, 90_000)

  test('on a phone the radar tables stack: every grade shown, nothing wider than the screen, the score a whole number inside its bar', async () => {
    const page = await openPage('/', [], VIEW_WIDTHS.phone)
    await paidAnswer(page, '#go-radar', '/signal/radar', '#radar-card')
    await paidAnswer(page, '#go-trending', '/scan/trending', '#trending-card')
    for (const width of [VIEW_WIDTHS.narrowest, VIEW_WIDTHS.phone]) {
      await page.setViewportSize({ width, height: 700 })
      for (const list of ['#radar-list', '#trending-list']) {
        const cells = await page.$$eval(`${list} td[data-label="Grade"]`, (nodes) =>
          nodes.map((node) => {
            const box = node.getBoundingClientRect()
            return { left: box.left, right: box.right, width: box.width, text: node.textContent }
          }),
        )
        expect(cells.length).toBeGreaterThan(0)
        for (const cell of cells) {
          expect(cell.width).toBeGreaterThan(0)
          expect(cell.right).toBeLessThanOrEqual(width)
          expect(cell.text).toMatch(/^([A-F]|not graded)$/)
        }
      }
    }
    const scores = await page.$$eval('#radar-list .score-bar text', (nodes) => nodes.map((node) => node.textContent))
    for (const score of scores) expect(score).toMatch(/^\d{1,3}$/)
    // The number sits inside the picture's box.
    const inside = await page.$$eval('#radar-list .score-bar', (svgs) =>
      svgs.every((svg: any) => {
        const text = svg.querySelector('text').getBBox()
        return text.x >= 0 && text.x + text.width <= svg.viewBox.baseVal.width + 0.5
      }),
    )
    expect(inside).toBe(true)
    expect(await checkView(page, 'radar-phone')).toEqual([])
    await page.close()
    expect(outside).toEqual([])
  }, 90_000)

  test('a new tab (its sessionStorage empty) signs in with the wallet that paid (sign-in-with-x) and is answered again without paying', async () => {
    const context = await chrome.browser.newContext()
    await guard(context)
    const mint = mintOf('dead-token')
    const first = await context.newPage()
    await first.goto(`${running.url}/t/${mint}`)
    await paidAnswer(first, '#token-view [data-view="quick-scan"]', '/scan/quick', '#quick-card')
    const grade = await first.locator('#grade').textContent()
    await first.close()
    const spent = await treasury()

    // Another tab: nothing held in it; the page signs in with the demo wallet, which paid, and pays nothing.
    const second = await context.newPage()
    const asked: string[] = []
    second.on('request', (request) => {
      if (request.method() === 'POST') asked.push(new URL(request.url()).pathname)
    })
    await second.goto(`${running.url}/t/${mint}`)
    expect(await second.evaluate(() => (globalThis as any).sessionStorage.length)).toBe(0)
    const replayed = second.waitForResponse(
      (response) => new URL(response.url()).pathname === '/scan/quick' && response.ok(),
    )
    await second.click('#token-view [data-view="quick-scan"]')
    const answer = await replayed
    expect(answer.headers()['x-answer-replayed']).toBe('sign-in-with-x')
    await second.locator('#quick-card').waitFor()
    expect(await second.locator('#grade').textContent()).toBe(grade)
    expect(await statusText(second)).toContain('signed in')
    expect(asked).toContain('/demo/sign-in')
    expect(asked).not.toContain('/demo/pay')
    expect(await treasury()).toBe(spent)
    await context.close()
    expect(outside).toEqual([])
  }, 90_000)

  test('a wallet-standard Solana wallet signs in (solana:signMessage) from a new tab, and is answered without paying again', async () => {
    const context = await chrome.browser.newContext()
    await guard(context)
    const asked = await injectSolanaWallet(context, sandbox.file.buyer.keypair_path)
    const mint = mintOf('whale-concentrated')
    /** A new tab of this browser on the token's page, paying with the test wallet. */
    const tab = async () => {
      const page = await context.newPage()
      await page.goto(`${running.url}/t/${mint}`)
      await page.locator('#wallet option', { hasText: 'Test Wallet (Solana)' }).waitFor({ state: 'attached' })
      await page.selectOption('#wallet', { label: 'Test Wallet (Solana)' })
      return page
    }
    const first = await tab()
    await paidAnswer(first, '#token-view [data-view="quick-scan"]', '/scan/quick', '#quick-card')
    expect(asked.transactions).toBe(1)
    await first.close()
    const spent = await treasury()

    const second = await tab()
    const replayed = second.waitForResponse(
      (response) => new URL(response.url()).pathname === '/scan/quick' && response.ok(),
    )
    await second.click('#token-view [data-view="quick-scan"]')
    expect((await replayed).headers()['x-answer-replayed']).toBe('sign-in-with-x')
    await second.locator('#quick-card').waitFor()
    expect(await statusText(second)).toContain('signed in')
    // The wallet signed the service's sign-in message (CAIP-122), and no second payment.
    expect(asked.messages).toHaveLength(1)
    expect(asked.messages[0]).toContain('Sign in to fetch again an answer this wallet paid for')
    expect(asked.messages[0]).toContain(`${running.url}/scan/quick`)
    expect(asked.transactions).toBe(1)
    expect(await treasury()).toBe(spent)
    await context.close()
    expect(outside).toEqual([])
  }, 90_000)

  test("the demo wallet signs in only to this service's own sign-in offers", async () => {
    const challenge = await post('/scan/quick', { token_address: mintOf('blue-chip') })
    const required = JSON.parse(Buffer.from(challenge.headers.get('payment-required')!, 'base64').toString()) as Json
    const offer = required.extensions['sign-in-with-x']
    const chainId = offer.supportedChains.find((chain: Json) => chain.chainId.startsWith('solana:')).chainId
    const signIn = (info: Json, chain = chainId) => post('/demo/sign-in', { info, chainId: chain })
    const own = await signIn(offer.info)
    expect(own.status).toBe(200)
    expect(((await own.json()) as Json).header).toBeString()
    for (const [info, chain, says] of [
      [{ ...offer.info, domain: 'evil.example', uri: 'https://evil.example/scan/quick' }, chainId, 'evil.example'],
      [{ ...offer.info, uri: `${running.url}/health` }, chainId, '/health'],
      [{ ...offer.info, statement: 'Transfer everything' }, chainId, 'statement'],
      [offer.info, 'eip155:1', 'eip155:1'],
    ] as const) {
      const refused = await signIn(info, chain)
      expect(refused.status).toBe(400)
      expect(await refused.json()).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining(says) })
    }
  }, 30_000)

  test("a trade idea's selects have visible labels; the favicon is served and linked, so the browser logs no 404", async () => {
    const failed: string[] = []
    const page = await chrome.browser.newPage()
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`)
    })
    await page.goto(`${running.url}/`)
    for (const id of ['suggest-appetite', 'suggest-interval', 'suggest-budget']) {
      const label = page.locator(`label[for="${id}"]`)
      expect(await label.isVisible()).toBe(true)
      expect((await label.textContent())!.length).toBeGreaterThan(3)
    }
    expect(await page.getAttribute('link[rel="icon"]', 'href')).toBe('/favicon.ico')
    const icon = await fetch(`${running.url}/favicon.ico`)
    expect(icon.status).toBe(200)
    expect(icon.headers.get('content-type')).toBe('image/svg+xml')
    expect(await icon.text()).toStartWith('<svg')
    // The browser asks for its icon itself: give it a moment, then no answer of 400 or more.
    await page.waitForTimeout(500)
    expect(failed).toEqual([])
    await page.close()
  }, 30_000)
})
