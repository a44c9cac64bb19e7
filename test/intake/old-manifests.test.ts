import { test } from 'node:test'
import { withService } from '../support/service.ts'
import { checkSequence, earlierDayScenarios } from './sequence.scenarios.ts'

const INTAKE = { rateLimits: { insertPerMinute: 1000 } }

for (const scenario of earlierDayScenarios) {
  test(`intake step 5: ${scenario.name}`, () => withService({ config: INTAKE }, (service) => checkSequence(service, scenario)))
}
