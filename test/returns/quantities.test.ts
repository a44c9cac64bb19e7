import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  centsToSixDecimals,
  formatSixDecimals,
  lineAmountCents,
  lineUnits,
  listedQuantity,
  returnedUnits,
  type LineQuantities,
} from '../../src/shared/quantities.ts'

const units: Array<{ name: string; line: LineQuantities; units: number }> = [
  {
    name: 'loose units (UN line of the example)',
    line: { cantidad_fracciones: 12, cantidad_caja: 0, factor_conversion: 24, total: 430.56 },
    units: 12,
  },
  {
    name: 'whole boxes (2 × 96, CantidadFracciones 0)',
    line: { cantidad_fracciones: 0, cantidad_caja: 2, factor_conversion: 96, total: 1476.77 },
    units: 192,
  },
  {
    name: 'mixed: 1 box of 72 plus 10 loose',
    line: { cantidad_fracciones: 10, cantidad_caja: 1, factor_conversion: 72, total: 392.85 },
    units: 82,
  },
  {
    name: 'boxes already counted in CantidadFracciones',
    line: { cantidad_fracciones: 192, cantidad_caja: 2, factor_conversion: 96, total: 1 },
    units: 192,
  },
  {
    name: 'no factor counts one per box',
    line: { cantidad_fracciones: 0, cantidad_caja: 3, factor_conversion: null, total: 1 },
    units: 3,
  },
]
for (const scenario of units)
  test(`quantities: line units, ${scenario.name}`, () => assert.equal(lineUnits(scenario.line), scenario.units))

const amounts: Array<{ name: string; total: number; returned: number; held: number; cents: number }> = [
  { name: 'the whole line', total: 1476.77, returned: 192, held: 192, cents: 147677 },
  { name: 'one box of two', total: 1476.77, returned: 96, held: 192, cents: 73839 }, // 738.385 → 738.39
  { name: 'loose units of a mixed line', total: 392.85, returned: 10, held: 82, cents: 4791 }, // 47.9085…
  { name: 'the box of a mixed line', total: 392.85, returned: 72, held: 82, cents: 34494 }, // 344.9414…
  { name: 'a third of a line', total: 100, returned: 1, held: 3, cents: 3333 },
  { name: 'half a cent rounds away from zero', total: 0.05, returned: 1, held: 2, cents: 3 },
  { name: 'a zero total', total: 0, returned: 5, held: 10, cents: 0 },
]
for (const scenario of amounts) {
  test(`quantities: amount of ${scenario.name}`, () =>
    assert.equal(lineAmountCents(scenario.total, scenario.returned, scenario.held), scenario.cents))
}

test('quantities: partial returns in steps add up to at most the line (each rounded on its own)', () => {
  const steps = [1, 1, 1].map((returned) => lineAmountCents(100, returned, 3))
  assert.deepEqual(steps, [3333, 3333, 3333])
})

const decimals: Array<[number, number, string]> = [
  [15000, 100, '150.000000'],
  [5, 100, '0.050000'],
  [0, 1, '0.000000'],
  [-12345, 100, '-123.450000'],
  [82000, 72000, '1.138889'],
  [1, 3, '0.333333'],
  [2, 3, '0.666667'],
  [1, 2_000_000, '0.000001'],
  [-1, 2_000_000, '-0.000001'],
  [123456789012345, 100, '1234567890123.450000'], // past 2^53 once scaled: the BigInt path
  [7, 2, '3.500000'],
  [9_007_199_254_740_991, 1, '9007199254740991.000000'],
]
for (const [numerator, denominator, text] of decimals) {
  test(`quantities: ${numerator}/${denominator} with six decimals is ${text}`, () =>
    assert.equal(formatSixDecimals(numerator, denominator), text))
}

test('quantities: listed quantity is boxes for CJ lines and units otherwise', () => {
  assert.equal(listedQuantity(96, 'CJ', 96), '1.000000')
  assert.equal(listedQuantity(82, 'CJ', 72), '1.138889')
  assert.equal(listedQuantity(12, 'UN', 24), '12.000000')
  assert.equal(listedQuantity(returnedUnits(72, 1, 10), 'CJ', 72), '1.138889')
  assert.equal(centsToSixDecimals(73839), '738.390000')
})
