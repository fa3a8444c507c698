import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tracingRequested } from './tracing-switch.ts';

describe('tracingRequested', () => {
  it('is off without an OTLP endpoint, whatever else is set', () => {
    assert.equal(tracingRequested({}), false);
    assert.equal(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ', OTEL_SERVICE_NAME: 'portal' }), false);
  });

  it('is on with the general or the traces endpoint', () => {
    assert.equal(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }), true);
    assert.equal(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }), true);
  });

  it('stays off when the standard switches say so, despite an endpoint', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    assert.equal(tracingRequested({ ...endpoint, OTEL_SDK_DISABLED: 'TRUE' }), false);
    assert.equal(tracingRequested({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }), false);
    assert.equal(tracingRequested({ ...endpoint, OTEL_SDK_DISABLED: 'false', OTEL_TRACES_EXPORTER: 'otlp' }), true);
  });
});
