/**
 * Business reports over 2-5 pages: sections of prose, a data table with row and column
 * headers, captioned figures, recommendations and a sign-off.
 */
import { type Column, Flow, FONT_SETS, footers, table, tableStyle } from '../layout.ts';
import { PAGE, PdfDoc } from '../pdf-writer.ts';
import { type Ev, ev, pdfDoc, Questions } from '../questions.ts';
import { type ChartKind, chartRaster } from '../raster.ts';
import { hashSeed, makeRng } from '../rng.ts';
import { fmtNumber, isoOf, MONTHS, organisationName, personName, pickCountry, randomDay } from '../text.ts';
import type { Family, RegionAnswer } from '../types.ts';
import { heightFor, letterhead, makeCtx, picture } from './common.ts';

const PERIOD_TYPES = ['Monthly', 'Quarterly', 'Half-year', 'Annual'];
const PRODUCERS = ['corporate', 'academic', 'dashboard'] as const;
const ROW_SETS = [
  ['North', 'South', 'East', 'West', 'Central', 'International'],
  ['Retail', 'Wholesale', 'Online', 'Services', 'Licensing'],
  ['Widgets', 'Sensors', 'Controllers', 'Cables', 'Software', 'Support plans'],
  ['Plant A', 'Plant B', 'Plant C', 'Distribution centre', 'Head office'],
];
const METRICS = ['Revenue', 'Units shipped', 'Operating costs', 'New customers', 'Orders processed'];
const FIGURE_TOPICS = [
  'Revenue by region',
  'Headcount by quarter',
  'Operating margin trend',
  'Customer retention by cohort',
  'Capital expenditure by site',
  'Order volume by month',
  'Share of sales by channel',
  'Energy use per unit produced',
];
const FILLER = [
  'Management continued to focus on cost discipline while investing in the capabilities needed for future growth.',
  'Demand remained resilient across most markets, although pricing pressure increased towards the end of the period.',
  'The integration of the new planning system was completed on schedule and is already improving forecast accuracy.',
  'Supply chain conditions improved, with lead times for key components returning to historical levels.',
  'Customer satisfaction scores remained high, and complaint volumes fell compared with the previous period.',
  'Investment in training and safety programmes continued, with no lost-time incidents recorded at our main sites.',
  'The board reviewed the principal risks facing the business and concluded that the mitigations in place remain appropriate.',
  'Working capital was managed closely, and inventory levels were reduced without affecting service levels.',
  'Several long-standing supplier agreements were renegotiated, securing more favourable payment terms.',
  'The outlook for the next period remains cautiously positive, subject to the macroeconomic risks described below.',
  'Energy efficiency measures introduced last year delivered savings ahead of the original business case.',
  'Recruitment for specialist roles remained challenging, and the use of contractors increased slightly as a result.',
];
const RECOMMENDATIONS = [
  'Expand the online sales channel into two additional markets',
  'Consolidate the two smallest distribution centres',
  'Renegotiate freight contracts before the end of the year',
  'Introduce quarterly pricing reviews for key accounts',
  'Invest in predictive maintenance at the main plant',
  'Hire additional customer success staff for large accounts',
  'Reduce the number of active product variants by a fifth',
  'Launch a supplier sustainability assessment programme',
];

async function generate(seed: number) {
  const rng = makeRng(hashSeed('report', seed));
  const producer = rng.pick(PRODUCERS);
  const country = pickCountry(rng, { US: 4, UK: 3 });
  const ctx = makeCtx(
    rng,
    country,
    producer === 'academic'
      ? FONT_SETS[1]
      : producer === 'corporate'
        ? FONT_SETS[0]
        : rng.pick(FONT_SETS.slice(0, 2)),
  );
  const org = organisationName(rng, country);
  const periodType = rng.pick(PERIOD_TYPES);
  const date = randomDay(rng);
  const year = date.y - 1;
  const periodPhrase =
    periodType === 'Monthly'
      ? `for the month of ${MONTHS[(date.m + 10) % 12]} ${date.m === 1 ? date.y - 1 : date.y}`
      : periodType === 'Quarterly'
        ? `for the quarter ended ${rng.pick(['March 31', 'June 30', 'September 30', 'December 31'])}, ${year}`
        : periodType === 'Half-year'
          ? `for the six months ended ${rng.pick(['June 30', 'December 31'])}, ${year}`
          : `for the year ended December 31, ${year}`;
  const title = rng.pick([
    'Operations Report',
    'Performance Review',
    'Management Report',
    'Business Review',
    'Sales Report',
    // Titles naming no kind of writing: told by their size and place alone.
    'Operations Assessment',
    'Quality Audit',
    'Business Outlook',
  ]);
  const fullTitle = `${periodType === 'Half-year' ? 'Half-Year' : periodType} ${title}`;
  const author = rng.chance(0.65) ? personName(rng) : null;
  const rows = rng.sample(rng.pick(ROW_SETS), rng.int(3, 5));
  const colsByType: Record<string, string[]> = {
    Monthly: ['Week 1', 'Week 2', 'Week 3', 'Week 4'],
    Quarterly: ['Month 1', 'Month 2', 'Month 3'],
    'Half-year': ['Q1', 'Q2'],
    Annual: ['Q1', 'Q2', 'Q3', 'Q4'],
  };
  const cols = rng.chance(0.5) ? colsByType[periodType]! : [`${year - 2}`, `${year - 1}`, `${year}`];
  const metric = rng.pick(METRICS);
  const decimals = rng.chance(0.3) ? 1 : 0;
  const values = rows.map(() =>
    cols.map(() => Math.round((50 + rng.next() * 9000) * 10 ** decimals) / 10 ** decimals),
  );
  const withTotal = rng.chance(0.6);
  const totals = cols.map(
    (_, j) => Math.round(values.reduce((a, r) => a + r[j]!, 0) * 10 ** decimals) / 10 ** decimals,
  );
  const grew = rng.chance(0.5);
  const change = (rng.int(5, 180) / 10).toFixed(1);
  const recs = rng.sample(RECOMMENDATIONS, rng.int(3, 5));
  const nFigures = rng.int(1, 3);
  const figTitles = rng.sample(FIGURE_TOPICS, nFigures);

  const doc = new PdfDoc();
  const size = producer === 'dashboard' ? ([792, 612] as const) : rng.chance(0.5) ? PAGE.letter : PAGE.a4;
  const fs = rng.pick([9.5, 10, 10.5]);
  const fonts = ctx.fonts;
  const flow = new Flow(doc, {
    size,
    margins: { top: 54, bottom: 80, left: 64, right: 64 },
    fonts,
    fontSize: fs,
    leading: 1.4,
  });
  const p = flow.page;
  const at: Record<string, Ev> = {};
  const head = letterhead(p, rng, {
    company: org,
    lines: [],
    fonts,
    x: flow.left,
    y: flow.y,
    w: flow.width,
    withLogo: true,
    align: producer === 'academic' ? 'center' : 'left',
  });
  flow.y = head.bottom + 10;
  if (producer === 'corporate') {
    p.rect(0, flow.y, size[0], 44, { stroke: 0, fill: 0.88 });
    p.text(flow.left, flow.y + 22, fullTitle, fonts.bold, 18);
    p.text(
      flow.left,
      flow.y + 37,
      periodPhrase.charAt(0).toUpperCase() + periodPhrase.slice(1),
      fonts.regular,
      fs,
    );
    flow.y += 56;
  } else {
    flow.line(fullTitle, { font: fonts.bold, size: 18, align: producer === 'academic' ? 'center' : 'left' });
    flow.line(periodPhrase.charAt(0).toUpperCase() + periodPhrase.slice(1), {
      align: producer === 'academic' ? 'center' : 'left',
    });
  }
  at.title = ev(1, fullTitle);
  at.period = ev(1, periodPhrase.replace(/^for /, ''));
  const dateText = ctx.date(date);
  const metaLine = author ? `Prepared by ${author} · ${dateText}` : `Issued ${dateText}`;
  flow.line(metaLine, { color: 0.3, align: producer === 'academic' ? 'center' : 'left' });
  at.date = ev(1, dateText);
  if (author) at.author = ev(1, author);
  flow.space(fs);

  let sec = 1;
  const heading = (t: string) => {
    flow.ensure(fs * 6);
    flow.space(fs * 0.4);
    flow.line(producer === 'academic' ? `${sec++}. ${t}` : t.toUpperCase(), {
      font: fonts.bold,
      size: fs + 1.5,
    });
  };
  const filler = rng.shuffle(FILLER);
  let f = 0;
  const prose = (n: number) => {
    for (let i = 0; i < n; i++) flow.para(filler[f++ % filler.length]!);
  };
  heading(rng.pick(['Executive summary', 'Summary', 'Overview']));
  const trend = grew
    ? `Total ${metric.toLowerCase()} increased by ${change}% compared with the prior year.`
    : `Total ${metric.toLowerCase()} decreased by ${change}% compared with the prior year.`;
  const tp = flow.para(`${filler[f++ % filler.length]} ${trend} ${filler[f++ % filler.length]}`);
  at.trend = ev(tp, grew ? `increased by ${change}%` : `decreased by ${change}%`);
  prose(rng.int(0, 3));

  // The data table.
  heading(rng.pick(['Results by segment', 'Performance data', 'Key figures']));
  prose(rng.int(0, 2));
  const unit =
    metric === 'Revenue' || metric === 'Operating costs' ? ` (${ctx.money.currency} thousands)` : '';
  const caption = `Table 1: ${metric} by ${rng.pick(['segment', 'period', 'unit'])}${unit}`;
  const captionAbove = producer !== 'dashboard';
  if (captionAbove) flow.line(caption, { font: fonts.bold, size: fs - 0.5 });
  const cell = (v: number) => fmtNumber(v, ctx.locale.separators, decimals);
  const columns: Column[] = [
    { title: rng.pick(['', 'Segment', metric]), width: 30 },
    ...cols.map((c) => ({ title: c, width: 15, align: 'right' as const })),
  ];
  const tableRows = values.map((r, i) => [rows[i]!, ...r.map(cell)]);
  if (withTotal) tableRows.push(['Total', ...totals.map(cell)]);
  const pages = table(
    flow,
    columns,
    tableRows,
    tableStyle(rng, fonts, fs - 0.5),
    flow.left,
    Math.min(flow.width, 120 + cols.length * 80),
  );
  if (!captionAbove) {
    flow.line(caption, { size: fs - 1 });
    flow.space(fs * 0.6);
  }
  const ri = rng.int(0, rows.length - 1);
  const ci = rng.int(0, cols.length - 1);
  const cellEv = ev(pages[ri]!, cell(values[ri]![ci]!));
  const tci = rng.int(0, cols.length - 1);
  const totalEv = withTotal ? ev(pages[rows.length]!, cell(totals[tci]!)) : null;
  prose(rng.int(1, 3));

  // Figures.
  const figures: RegionAnswer[] = [];
  const kinds: ChartKind[] = ['bar', 'line', 'pie'];
  figTitles.forEach((t, i) => {
    if (rng.chance(0.5)) heading(rng.pick(['Analysis', 'Trends', 'Operational review', 'Market review']));
    prose(rng.int(0, 2));
    const raster = chartRaster(
      rng,
      rng.pick(kinds),
      Array.from({ length: rng.int(4, 10) }, () => rng.int(10, 100)),
    );
    const w = Math.min(flow.width, rng.int(260, 380));
    const h = heightFor(w, raster);
    const cap = `Figure ${i + 1}: ${t}`;
    flow.ensure(h + fs * 3);
    const x = producer === 'academic' ? flow.left + (flow.width - w) / 2 : flow.left;
    figures.push(picture(flow.page, x, flow.y, w, raster, cap));
    flow.y += h + 4;
    flow.line(cap, { size: fs - 0.5, align: producer === 'academic' ? 'center' : 'left' });
    flow.space(fs * 0.5);
  });
  prose(rng.int(0, 4));

  heading(rng.pick(['Recommendations', 'Next steps', 'Actions for the coming period']));
  const recEv: Ev[] = [];
  const bullet = rng.pick(['•', '-', '']);
  recs.forEach((r, i) => {
    const prefix = bullet === '' ? `${i + 1}. ` : `${bullet} `;
    recEv.push(ev(flow.para(`${prefix}${r}.`, { indent: 12, after: 2 }), r));
  });
  prose(rng.int(0, 2));
  footers(flow, rng, [`${org} · ${fullTitle} · ${rng.pick(['Internal', 'Confidential', 'For discussion'])}`]);

  const rowName = rows[ri]!;
  const colName = cols[ci]!;
  const figK = rng.int(0, figures.length - 1);
  const q = new Questions();
  q.text(
    'report_title',
    ['What is the title of the report?', 'Report title', 'Name of this report'],
    fullTitle,
    at.title,
  );
  q.text(
    'prepared_by',
    ['Who prepared the report?', 'Author', 'Name of the person who wrote the report'],
    author,
    at.author,
  );
  q.date(
    'report_day',
    ['When was the report issued?', 'Report date', 'Date of the report'],
    isoOf(date),
    at.date,
  );
  q.number(
    'table_cell',
    [
      `What is the ${metric.toLowerCase()} for ${rowName} in ${colName}?`,
      `${metric}, ${rowName}, ${colName}`,
      `In Table 1, the value in row "${rowName}" and column "${colName}"`,
    ],
    values[ri]![ci]!,
    cellEv,
  );
  q.number(
    'table_total',
    [
      `What is the total ${metric.toLowerCase()} in ${cols[tci]}?`,
      `Total for ${cols[tci]} in Table 1`,
      `${metric} summed over all rows for ${cols[tci]}`,
    ],
    withTotal ? totals[tci]! : null,
    totalEv,
  );
  q.category(
    'period_type',
    [
      'What period does the report cover?',
      'Reporting period type',
      'Is this a monthly, quarterly, half-year or annual report?',
    ],
    PERIOD_TYPES,
    periodType,
    at.period,
  );
  q.bool(
    'metric_grew',
    [
      `Did total ${metric.toLowerCase()} increase compared with the prior year?`,
      `${metric} up year on year?`,
      `Was there growth in ${metric.toLowerCase()}?`,
    ],
    grew,
    at.trend,
  );
  q.items(
    'recommendations',
    ['What does the report recommend?', 'List the recommendations.', 'Recommended actions'],
    recEv,
  );
  q.image(
    'figure',
    [
      `Where is Figure ${figK + 1}?`,
      `Figure ${figK + 1} (${figTitles[figK]})`,
      `Chart showing ${figTitles[figK]!.toLowerCase()}`,
    ],
    figures[figK],
  );
  q.images('figures', ['All figures in the report', 'Every chart', 'Find the figures.'], figures);
  return pdfDoc('report', seed, producer, doc.save(), q);
}

export const report: Family = { name: 'report', generate };
