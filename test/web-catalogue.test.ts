import { expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { tokenAmount } from '../client/format.ts'
import { type MemberOf, unmeasured } from '../src/rendering/answer-prose.ts'
import {
  artifactPath,
  checkView,
  describeWithBrowser,
  offlineBrowser,
  paidAnswer,
  smallPictureText,
  VIEW_WIDTHS,
} from './support/browser.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

// The whole catalogue on the web page (web/catalogue.ts, web/pictures.ts): each view paid with the demo
// wallet on the sandbox, in a real headless Chromium that may reach nothing but the service; each
// picture's plotted numbers (its `data-values`) read back and compared with the JSON answer the page got.
const { sandbox, running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })

type Json = Record<string, any>

const walletOf = (role: string) =>
  sandbox.file.scenarios.flatMap((scenario) => scenario.wallets).find((wallet) => wallet.role === role)!

/** Each priced route's price as /openapi.json publishes it (x-payment-info), by `METHOD path`. */
async function publishedPrices(): Promise<Record<string, string>> {
  const spec = (await (await fetch(`${running.url}/openapi.json`)).json()) as Json
  const prices: Record<string, string> = {}
  for (const [path, operations] of Object.entries(spec.paths as Json))
    for (const [method, operation] of Object.entries(operations as Json)) {
      const amount = (operation as Json)['x-payment-info']?.price?.amount
      if (amount) prices[`${method.toUpperCase()} ${path}`] = amount
    }
  return prices
}

/** The figure's plotted values (its data-values). */
const valuesOf = async (page: Page, selector: string) =>
  JSON.parse((await page.locator(selector).first().getAttribute('data-values'))!) as Json

/** The grade's capping finding, as the answer's factors say it (a hard fail for F, else the ceiling at the grade). */
function capOf(grade: string, factors: Json[]): string | null {
  const fail = grade === 'F' ? factors.find((item) => item.hard_fail) : undefined
  return (fail ?? factors.find((item) => item.grade_ceiling === grade))?.code ?? null
}

/** No price with more than 3 significant digits under a dollar (`$0.0000154431…` reads `$0.0000154`). */
const LONG_PRICE = /\$0\.0*[1-9]\d{3,}/

describeWithBrowser('the whole catalogue on the web page (headless Chromium, offline)', () => {
  const chrome = offlineBrowser(() => [running.url, sandbox.file.urls.rpc])
  const { outside, guard } = chrome

  async function openPage(path: string, seen?: (method: string, url: string) => void): Promise<Page> {
    const page = await guard(await chrome.browser.newPage({ viewport: { width: 1100, height: 1400 } }))
    if (seen) page.on('request', (request) => seen(request.method(), request.url()))
    await page.goto(`${running.url}${path}`)
    return page
  }

  test('/t/<mint> opens the token view, nothing paid; every button says the price /openapi.json publishes', async () => {
    const prices = await publishedPrices()
    const mint = mintOf('blue-chip')
    const before = await usdcOf(sandbox, sandbox.file.buyer.address)
    const posts: string[] = []
    const page = await openPage(`/t/${mint}`, (method, url) => {
      if (method !== 'GET') posts.push(url)
    })
    await page.locator('#token-view').waitFor()
    expect(await page.inputValue('#mint')).toBe(mint)
    const buttons: Record<string, string> = {
      '[data-view="quick-scan"]': 'POST /scan/quick',
      '[data-view="market-intel"]': 'POST /market/intel',
      '[data-view="deep-dive"]': 'POST /scan/deep',
      '#token-view [data-view="exit"]': 'POST /exit/check',
      '#token-view [data-view="news"]': 'POST /news/pulse',
      '#token-view [data-view="brief"]': 'POST /news/brief',
      '#go-trending': 'POST /scan/trending',
      '#go-radar': 'POST /signal/radar',
      '#go-launches': 'POST /launch/radar',
      '#go-graduating': 'POST /graduation/radar',
      '#wallet-go': 'POST /wallet/intel',
      '#go-suggest': 'POST /trade/suggest',
    }
    for (const [selector, route] of Object.entries(buttons)) {
      expect(prices[route]).toBeDefined()
      expect(await page.locator(selector).first().textContent()).toEndWith(` · ${prices[route]} USD`)
    }
    await page.screenshot({ path: artifactPath('token-view.png'), fullPage: true })
    expect(await checkView(page, 'token-view')).toEqual([])
    // Opening a shared link asks for nothing and pays nothing.
    expect(posts).toEqual([])
    expect(await usdcOf(sandbox, sandbox.file.buyer.address)).toBe(before)
    await page.close()

    // A ticker or a bad address in the URL: the API's clear JSON error, no page.
    const refused = await fetch(`${running.url}/t/BONK`)
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ code: 'INVALID_ADDRESS', message: expect.stringContaining('ticker') })
    const evm = await fetch(`${running.url}/w/0x12ab`)
    expect(evm.status).toBe(400)
    expect(await evm.json()).toMatchObject({ code: 'INVALID_ADDRESS', message: expect.stringContaining('EVM') })
    // A browser gets a readable page (status 400) saying what the link holds instead, nothing asked.
    const html = await fetch(`${running.url}/w/BONK`, { headers: { accept: 'text/html' } })
    expect(html.status).toBe(400)
    expect(html.headers.get('content-type')).toContain('text/html')
    await html.arrayBuffer()
    for (const [path, heading] of [
      ['/w/BONK', '“BONK” is not a wallet address'],
      ['/t/BONK', '“BONK” is not a token (mint) address'],
      ['/t/0x12ab', '“0x12ab” is not a token (mint) address'],
      [`/t/${mint}%20`, `“${mint} ” is not a token (mint) address`],
    ] as const) {
      posts.length = 0
      const refusedPage = await openPage(path, (method) => {
        if (method === 'POST') posts.push(path)
      })
      expect(await refusedPage.locator('#url-refused h2').textContent()).toBe(heading)
      expect(await refusedPage.locator('#url-refused').textContent()).toMatch(/ticker|EVM|whitespace/)
      // A space pasted with the address: the bare address's page one click away.
      if (path.endsWith('%20')) expect(await refusedPage.locator('#url-fixed').getAttribute('href')).toBe(`/t/${mint}`)
      expect(await refusedPage.locator('#status').textContent()).toContain('nothing was asked or paid')
      expect(await refusedPage.locator('#token-view').count()).toBe(0)
      if (path === '/w/BONK') await refusedPage.screenshot({ path: artifactPath('url-refused.png') })
      await refusedPage.close()
      expect(posts).toEqual([])
    }
    expect(outside).toEqual([])
  }, 60_000)

  test('a token, paid view by view: the grade dial, the holders, price and volume, exit cost against size, the news — each picture plots the answer', async () => {
    const buyer = sandbox.file.buyer.address
    const before = await usdcOf(sandbox, buyer)
    const mint = mintOf('wash-traded')
    const page = await openPage('/')
    await page.fill('#mint', mint)
    const scan = await paidAnswer(page, '#scan', '/scan/quick', '#quick-card')
    // The address bar is the token's page, to share.
    expect(new URL(page.url()).pathname).toBe(`/t/${mint}`)
    expect(await valuesOf(page, '#quick-card [data-picture="grade"]')).toEqual({
      grade: scan.structural_risk_grade,
      capped_by: capOf(scan.structural_risk_grade, scan.factors),
    })
    expect(await valuesOf(page, '#quick-card [data-picture="holders"]')).toEqual({
      top_10_holder_pct: scan.top_10_holder_pct,
      insider_control_percent: null,
    })
    // The liquidity said in words (the meaning names it: "Thin liquidity: …"), not its code first.
    const liquidity = await page.locator('#quick-card .row', { hasText: 'Liquidity' }).locator('.value').textContent()
    expect(liquidity).toContain(scan.liquidity_check.meaning)
    expect(liquidity).not.toContain(`${scan.liquidity_check.rating} —`)
    // The picture's text alternative: its caption and its table of numbers.
    expect(await page.locator('#quick-card [data-picture="holders"] table').textContent()).toContain('Top 10 holders')

    const intel = await paidAnswer(page, '#go-intel', '/market/intel', '#intel-card')
    // A change the answer did not measure is not plotted (null), never its placeholder 0.
    const change = (member: MemberOf<'market_intel'>) =>
      unmeasured(intel as { missing_fields: string[] }, 'market_intel', member) ? null : intel[member]
    expect(await valuesOf(page, '#intel-card [data-picture="price"]')).toEqual({
      current_price_usd: intel.current_price_usd,
      changes_pct: {
        '24 h': change('price_change_24h_pct'),
        '1 h': change('price_change_1h_pct'),
        '15 min': change('price_change_15m_pct'),
        '5 min': change('price_change_5m_pct'),
      },
      volume_1h_usd: intel.volume_1h_usd,
      volume_24h_usd: intel.volume_24h_usd,
    })
    // The page's own figures (the rows and the picture; the answer's market_summary is the service's prose).
    const figures = await page.$$eval('#intel-card .row, #intel-card figure', (nodes) =>
      nodes.map((node) => node.textContent).join(' '),
    )
    expect(figures).toContain('$0.0000')
    expect(figures).not.toMatch(LONG_PRICE)

    // The exit check at two sizes: one card, its curve through both answers, each point with its rating.
    await page.fill('#quick-card .exit-size', '5')
    const small = await paidAnswer(page, '#quick-card [data-view="exit"]', '/exit/check', '#exit-card')
    await page.fill('#quick-card .exit-size', '5000')
    const answered = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/exit/check' && response.ok(),
    )
    await page.locator('#quick-card [data-view="exit"]').click()
    const large = (await (await answered).json()) as Json
    await page.waitForFunction(
      () =>
        JSON.parse((globalThis as any).document.querySelector('#exit-card [data-picture="exit"]').dataset.values)
          .length === 2,
    )
    expect(await page.locator('#exit-card').count()).toBe(1)
    expect(await page.locator('#exit-rating').textContent()).toBe(large.exit_rating ?? 'NOT RATED')
    expect(await valuesOf(page, '#exit-card [data-picture="exit"]')).toEqual(
      [small, large].map((answer) => ({
        size_usdc: answer.size_usdc,
        exit_loss_pct: answer.exit_loss_pct,
        exit_rating: answer.exit_rating,
      })),
    )
    expect([small.size_usdc, large.size_usdc]).toEqual([5, 5000])
    // The first size again: its answer, held in this tab, shown again — nothing paid (the spend below counts two).
    await page.fill('#quick-card .exit-size', '5')
    await page.locator('#quick-card [data-view="exit"]').click()
    await page.locator('#status', { hasText: 'Exit check: paid at' }).waitFor()
    expect(await page.locator('#status').textContent()).toContain('no new payment')
    expect(await page.locator('#exit-card h2').textContent()).toMatch(/\$5(\.00)?$/)
    expect(await page.locator('#exit-card').count()).toBe(1)

    const news = await paidAnswer(page, '#quick-card [data-view="news"]', '/news/pulse', '#news-card')
    expect(await page.locator('#news-signal').textContent()).toBe(news.signal)
    expect(news.subject.mint).toBe(mint)
    const brief = await paidAnswer(page, '#quick-card [data-view="brief"]', '/news/brief', '#brief-card')
    expect(await page.locator('#brief-card h2').textContent()).toBe(brief.brief.headline)
    expect(await page.locator('#brief-card li').count()).toBe(brief.brief.claims.length)
    await page.screenshot({ path: artifactPath('token-catalogue.png'), fullPage: true })
    expect(await checkView(page, 'token-catalogue')).toEqual([])
    // On a phone every card and picture fits the screen (the cards' own content; the form is the page shell's).
    await page.setViewportSize({ width: 375, height: 800 })
    const widest = await page.$$eval('.card, .picture svg, .mint-actions', (nodes) =>
      Math.max(...nodes.map((node) => node.getBoundingClientRect().right)),
    )
    expect(widest).toBeLessThanOrEqual(375)
    await page.screenshot({ path: artifactPath('token-catalogue-375.png'), fullPage: true })
    await page.close()
    // The quick scan, market intel, two exit checks, the news pulse and brief, at their published prices.
    const prices = await publishedPrices()
    const spent = [
      'POST /scan/quick',
      'POST /market/intel',
      'POST /exit/check',
      'POST /exit/check',
      'POST /news/pulse',
      'POST /news/brief',
    ]
      .map((route) => BigInt(Math.round(Number(prices[route]) * 1e6)))
      .reduce((a, b) => a + b)
    expect(await usdcOf(sandbox, buyer)).toBe(before - spent)
    expect(outside).toEqual([])
  }, 120_000)

  test("the price chart's scale is honest: a dead token's small move draws flat, a crash draws tall, the axis in % change with its 0% line", async () => {
    /** The chart's points (their heights), its axis labels and the 24 h move the answer gives. */
    async function chartOf(mint: string) {
      const page = await openPage(`/t/${mint}`)
      const intel = await paidAnswer(page, '#token-view [data-view="market-intel"]', '/market/intel', '#intel-card')
      const chart = page.locator('#intel-card [data-picture="price"] svg')
      const heights = await chart
        .locator('circle.point')
        .evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('cy'))))
      const labels = await chart.locator('text.axis').allTextContents()
      // The page's own rows say codes in words (dead · low liquidity noise), as it does elsewhere.
      const rows = await page.locator('#intel-card .row').allTextContents()
      expect(rows.join(' ')).not.toMatch(/[A-Z]+_[A-Z_]+|buy [A-Z]{3}/)
      const zero = await chart.locator('line.zero').count()
      await page.locator('#intel-card').screenshot({ path: artifactPath(`price-scale-${mint.slice(0, 6)}.png`) })
      await page.close()
      return {
        span: Math.max(...heights) - Math.min(...heights),
        labels,
        zero,
        move: intel.price_change_24h_pct as number,
      }
    }
    const dead = await chartOf(mintOf('dead-token'))
    const crash = await chartOf(mintOf('bundled-launch'))
    // The premise, from the answers: the dead token moved under 5% in a day, the other more than 20%.
    expect(Math.abs(dead.move)).toBeLessThan(5)
    expect(Math.abs(crash.move)).toBeGreaterThan(20)
    // The plot is 62 units tall: under ±10% a move of <5% takes at most a quarter of it; the crash at least a third.
    expect(dead.span).toBeLessThanOrEqual(62 * 0.25)
    expect(crash.span).toBeGreaterThanOrEqual(62 / 3)
    expect(crash.span).toBeGreaterThan(dead.span * 4)
    expect(dead.labels).toEqual(['+10%', '0%', '−10%'])
    expect(crash.labels).toContain('0%')
    expect(crash.labels.some((label) => /^[+−]\d+%$/.test(label) && label !== '+10%')).toBe(true)
    expect([dead.zero, crash.zero]).toEqual([1, 1])
    expect(outside).toEqual([])
  }, 90_000)

  test('the sell-size slider: arrow keys step through round dollar sizes ($1 to $1,000,000 in under 100 presses), each said in dollars', async () => {
    const page = await openPage(`/t/${mintOf('blue-chip')}`)
    const slider = page.locator('#token-view .exit-slider')
    const size = page.locator('#token-view .exit-size')
    expect(await slider.getAttribute('aria-valuetext')).toBe('$10')
    await slider.focus()
    await page.keyboard.press('ArrowRight')
    expect(await slider.getAttribute('aria-valuetext')).toBe('$15')
    expect(await size.inputValue()).toBe('15')
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowLeft')
    expect(await slider.getAttribute('aria-valuetext')).toBe('$7.50')
    // From one end to the other: the presses it takes.
    await page.keyboard.press('Home')
    expect(await slider.getAttribute('aria-valuetext')).toBe('$1')
    const presses = Number(await slider.getAttribute('max')) - Number(await slider.getAttribute('min'))
    expect(presses).toBeGreaterThanOrEqual(18)
    expect(presses).toBeLessThanOrEqual(100)
    await page.keyboard.press('End')
    expect(await slider.getAttribute('aria-valuetext')).toBe('$1,000,000')
    expect(await size.inputValue()).toBe('1000000')
    // A typed size moves the slider to the nearest round size and is said as typed.
    await size.fill('480')
    expect(await slider.getAttribute('aria-valuetext')).toBe('$480')
    await page.keyboard.press('Tab')
    await slider.focus()
    await page.keyboard.press('ArrowRight')
    expect(await slider.getAttribute('aria-valuetext')).toBe('$750')

    // Checks at near sizes ($10, $13, then $1,000): their axis labels would overlap, so one is left out (the table has all).
    for (const dollars of ['10', '13', '1000']) {
      await size.fill(dollars)
      await paidAnswer(page, '#token-view [data-view="exit"]', '/exit/check', '#exit-card')
    }
    await page.setViewportSize({ width: VIEW_WIDTHS.phone, height: 800 })
    const curve = page.locator('#exit-card [data-picture="exit"]')
    await page.waitForFunction(
      () =>
        JSON.parse((globalThis as any).document.querySelector('#exit-card [data-picture="exit"]').dataset.values)
          .length === 3,
    )
    const boxes = await curve.locator('text.axis').evaluateAll((nodes) =>
      nodes.map((node) => {
        const box = node.getBoundingClientRect()
        return [box.left, box.right]
      }),
    )
    expect(boxes.length).toBe(2)
    for (let index = 1; index < boxes.length; index++)
      expect(boxes[index]![0]).toBeGreaterThanOrEqual(boxes[index - 1]![1])
    expect(await curve.locator('table').textContent()).toContain('Selling $13')
    await curve.screenshot({ path: artifactPath('exit-near-sizes-375.png') })
    await page.close()
    expect(outside).toEqual([])
  }, 60_000)

  test('the deep dive of a bundled launch: insiders hatched and labelled, the wallet graph and the LP, as the answer has them', async () => {
    const mint = mintOf('bundled-launch')
    const page = await openPage(`/t/${mint}`)
    const dive = await paidAnswer(page, '#token-view [data-view="deep-dive"]', '/scan/deep', '#deep-card')
    expect(dive.wallet_analysis.dev_wallet_linked).toBe(true)
    expect(await valuesOf(page, '#deep-card [data-picture="holders"]')).toEqual({
      top_10_holder_pct: dive.top_10_holder_pct,
      insider_control_percent: dive.wallet_analysis.insider_control_percent ?? null,
    })
    const figure = page.locator('#deep-card [data-picture="holders"]')
    expect(await figure.locator('table').textContent()).toContain('Insiders (developer and linked wallets)')
    expect(await figure.locator('pattern').count()).toBe(1)
    expect(await valuesOf(page, '#deep-card [data-picture="grade"]')).toEqual({
      grade: dive.risk_grade,
      capped_by: capOf(dive.risk_grade, dive.factors),
    })
    // The dial names the capping finding in words.
    const cap = (dive.factors as Json[]).find((item) => item.code === capOf(dive.risk_grade, dive.factors))
    if (cap)
      expect(await page.locator('#deep-card [data-picture="grade"] figcaption').textContent()).toContain(cap.title)
    // The wallet graph: the developer and every wallet its findings name, as their evidence names them.
    const evidence = (code: string, member: string) =>
      ((dive.factors as Json[]).find((item) => item.code === code)?.evidence[member] ?? []) as string[]
    const graph = await valuesOf(page, '#deep-card [data-picture="wallets"]')
    expect(graph).toEqual({
      developer: dive.dev_wallet_analysis.address,
      dev_linked: evidence('DEV_LINKED_WALLETS', 'dev_linked_wallets'),
      clustered: evidence('WALLET_CLUSTER', 'clustered_wallets'),
      bundle_buyers: evidence('BUNDLED_LAUNCH', 'linked_buyers'),
    })
    expect(graph.bundle_buyers).toHaveLength(6)
    // Each bundle buyer is a node lettered B (not only a colour).
    expect(await page.locator('#deep-card [data-picture="wallets"] svg text').filter({ hasText: /^B$/ }).count()).toBe(
      6,
    )
    // The LP: burned, in lock programs and free, as liquidity_lock_status says.
    const lock = dive.liquidity_lock_status
    expect(await valuesOf(page, '#deep-card [data-picture="lp"]')).toEqual({
      burned_pct: lock.burned_pct,
      lock_program_pct: lock.lock_program_pct,
      locked_pct: lock.locked_pct,
      lock_duration_days: lock.lock_duration_days,
      permanent: lock.permanent,
    })
    expect(await page.locator('#deep-card [data-picture="lp"] table').textContent()).toContain('Free to withdraw100%')
    // Over time: nothing burned or locked, so nothing to date — all of it can be withdrawn now.
    expect(await page.locator('#deep-card [data-picture="lp-timeline"] figcaption').textContent()).toBe(
      'None of the LP is burned or locked for good; 100% can be withdrawn now',
    )
    await page.screenshot({ path: artifactPath('deep-dive-pictures.png'), fullPage: true })
    // On a phone every picture's text is at least 12 px as drawn (the wallet graph's addresses included).
    await page.setViewportSize({ width: VIEW_WIDTHS.phone, height: 800 })
    expect(await smallPictureText(page)).toEqual([])
    await page.screenshot({ path: artifactPath('deep-dive-pictures-375.png'), fullPage: true })
    for (const kind of ['wallets', 'lp', 'lp-timeline'])
      await page
        .locator(`#deep-card [data-picture="${kind}"]`)
        .screenshot({ path: artifactPath(`picture-${kind}-375.png`) })
    await page.close()
    expect(outside).toEqual([])
  }, 90_000)

  test('/w/<address> opens the wallet view; its intel, paid, shows the verdict the answer gives', async () => {
    const trader = walletOf('profitable-trader').address
    const page = await openPage(`/w/${trader}`)
    expect(await page.inputValue('#wallet-address')).toBe(trader)
    const intel = await paidAnswer(page, '#wallet-go', '/wallet/intel', '#wallet-card')
    expect(await page.locator('#wallet-verdict').textContent()).toBe(intel.verdict)
    expect(await page.locator('#wallet-card').textContent()).toContain(`${intel.total_trades}`)
    await page.screenshot({ path: artifactPath('wallet-intel.png'), fullPage: true })
    expect(await checkView(page, 'wallet-intel')).toEqual([])

    // A ticker in the wallet form is refused in the page, before any request.
    await page.fill('#wallet-address', 'BONK')
    await page.click('#wallet-go')
    await expect(page.locator('#status').textContent()).resolves.toContain('ticker')
    await page.close()
    expect(outside).toEqual([])
  }, 60_000)

  test('the signal radar with a ranking unread says which one in words, never its code', async () => {
    sandbox.faults.set('jupiter', '/tokens/v2/toporganicscore', { kind: 'server_error' })
    try {
      const page = await openPage('/')
      const radar = await paidAnswer(page, '#go-radar', '/signal/radar', '#radar-card')
      expect(radar.missing_fields).toContain('ranking:toporganicscore')
      const said = await page.locator('#radar-missing').textContent()
      expect(said).toBe('Not read, so not on this list: the top organic score ranking.')
      expect(await page.locator('#radar-card').textContent()).not.toContain('ranking:')
      await page.close()
    } finally {
      sandbox.faults.clear()
    }
    expect(outside).toEqual([])
  }, 60_000)

  test('the market: trending and the signal radar list what the answers list, each token linking to its page', async () => {
    const feeds: string[] = []
    const page = await openPage('/', (method, url) => {
      if (method === 'POST' && new URL(url).pathname === '/scan/trending') feeds.push(url)
    })
    const trending = await paidAnswer(page, '#go-trending', '/scan/trending', '#trending-card')
    // Asked again: the feed paid for in this tab is shown again, one card, no request.
    const paidRequests = feeds.length
    await page.locator('#go-trending').dblclick()
    await page.locator('#status', { hasText: 'Trending: paid at' }).waitFor()
    expect(feeds.length).toBe(paidRequests)
    expect(await page.locator('#trending-card').count()).toBe(1)
    const listed = await page.$$eval('#trending-list tbody tr', (rows) =>
      rows.map((row) => row.getAttribute('data-mint')),
    )
    expect(listed).toEqual((trending.items as Json[]).map((item) => item.token_address))
    expect(listed.length).toBeGreaterThan(0)
    // The title reads as words: the feed's order said ("by trend"), not its code twice.
    expect(await page.locator('#trending-card h2').textContent()).toBe(`Trending · by trend, last ${trending.interval}`)
    expect(await page.locator('#trending-card').textContent()).not.toMatch(LONG_PRICE)

    const radar = await paidAnswer(page, '#go-radar', '/signal/radar', '#radar-card')
    const scores = await page.$$eval('#radar-list tbody tr', (rows) =>
      rows.map((row) => [row.getAttribute('data-mint'), Number(row.getAttribute('data-score'))]),
    )
    expect(scores).toEqual((radar.items as Json[]).map((item) => [item.token_address, item.convergence_score]))
    // The launchpad's radars: each curve listed as the answer lists it, its bonding progress as drawn.
    for (const [button, path, card, list] of [
      ['#go-launches', '/launch/radar', '#launch-card', '#launch-list'],
      ['#go-graduating', '/graduation/radar', '#graduation-card', '#graduation-list'],
    ] as const) {
      const feed = await paidAnswer(page, button, path, card)
      const rows = await page.$$eval(`${list} tbody tr`, (nodes) =>
        nodes.map((node) => [node.getAttribute('data-mint'), Number(node.getAttribute('data-progress'))]),
      )
      expect(rows).toEqual((feed.items as Json[]).map((item) => [item.token_address, item.bonding_progress_pct]))
    }
    // A trade idea: its action, its conviction (drawn as a bar) and each point that moved it, as the answer says.
    const idea = await paidAnswer(page, '#go-suggest', '/trade/suggest', '#suggest-card')
    expect(await page.locator('#suggest-action').textContent()).toBe(idea.recommendation.action)
    expect(Number(await page.locator('#suggest-card').getAttribute('data-conviction'))).toBe(
      idea.recommendation.conviction,
    )
    const points = await page.$$eval('#suggest-factors li', (nodes) =>
      nodes.map((node) => Number(node.getAttribute('data-points'))),
    )
    expect(points).toEqual((idea.recommendation.cited_factors as Json[]).map((factor) => factor.points))

    // Over 24 h the radar's blue chip is a BUY: its plan, quoted for the demo wallet (free), in whole tokens.
    await page.selectOption('#suggest-interval', '24h')
    const buy = await paidAnswer(page, '#go-suggest', '/trade/suggest', '#suggest-card #go-quote')
    expect(buy.recommendation.action).toBe('BUY')
    expect(buy.selection.candidate.token_address).toBe(mintOf('blue-chip'))
    const quoted = await paidAnswer(page, '#go-quote', '/trade/quote', '#quote-card')
    expect(await page.locator('#quote-gate').textContent()).toBe(quoted.risk_gate.verdict)
    expect(quoted.quote.in_amount).toBe(buy.recommendation.trade_plan.quote_request.amount_in)
    expect(await page.locator('#quote-card').getAttribute('data-out')).toBe(quoted.quote.out_amount)
    const quoteRows = await page.$$eval('#quote-card .row', (nodes) => nodes.map((node) => node.textContent ?? ''))
    const pairs = ((await (await fetch(`${running.url}/trade/pairs`)).json()) as Json).pairs as Json[]
    const usdc = pairs.find((pair) => pair.mint === quoted.quote.input_mint)
    if (usdc) expect(quoteRows[0]).toBe(`You pay${tokenAmount(quoted.quote.in_amount, usdc.decimals, usdc.symbol)}`)
    expect(quoteRows.join(' ')).not.toContain('atomic units')
    // The token bought, in whole tokens: its decimals as its mint on the sandbox chain has them.
    const supply = (await (
      await fetch(sandbox.file.urls.rpc, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getTokenSupply', params: [quoted.quote.output_mint] }),
      })
    ).json()) as Json
    expect(quoteRows[1]).toBe(
      `You get about${tokenAmount(quoted.quote.out_amount, supply.result.value.decimals, buy.selection.candidate.symbol)}`,
    )
    await page.screenshot({ path: artifactPath('market.png'), fullPage: true })
    expect(await checkView(page, 'market')).toEqual([])
    // On a phone the cards fit the screen (a long list scrolls inside its own box).
    await page.setViewportSize({ width: 375, height: 800 })
    for (const card of [
      '#trending-card',
      '#radar-card',
      '#launch-card',
      '#graduation-card',
      '#suggest-card',
      '#quote-card',
    ])
      expect(await page.locator(card).evaluate((node) => node.getBoundingClientRect().right)).toBeLessThanOrEqual(375)
    await page.screenshot({ path: artifactPath('market-375.png'), fullPage: true })
    await page.setViewportSize({ width: 1100, height: 1400 })

    // A listed token opens its own page.
    const first = (trending.items as Json[])[0]!.token_address as string
    await page.locator(`#trending-list a[href="/t/${first}"]`).click()
    await page.locator('#token-view').waitFor()
    expect(new URL(page.url()).pathname).toBe(`/t/${first}`)
    expect(await page.inputValue('#mint')).toBe(first)
    await page.close()
    expect(outside).toEqual([])
  }, 180_000)
})
