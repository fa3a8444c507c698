import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { createLogger } from './logging.ts';
import { RequestLogger, requestLoggerFactory } from './request-logger.ts';

function capturedLogger(logLevel: 'info' | 'warn') {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ logLevel }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  let children = 0;
  const child = log.child.bind(log);
  log.child = ((...args: Parameters<typeof child>) => {
    children += 1;
    return child(...args);
  }) as typeof log.child;
  return { log, lines, children: () => children };
}

describe('request loggers', () => {
  it("write a request's lines with its id, masked like every other line", () => {
    const { log, lines } = capturedLogger('info');
    const logger = new RequestLogger(log, { reqId: 'abc-1' });
    logger.warn({ email: 'someone@example.com' }, 'looked up');
    logger.error(new Error('broken'), 'failed');
    assert.equal(lines.length, 2);
    for (const line of lines) assert.equal(line.reqId, 'abc-1');
    assert.equal(lines[0]!.msg, 'looked up');
    assert.doesNotMatch(JSON.stringify(lines[0]), /someone@example\.com/);
    assert.equal((lines[1]!.err as { message: string }).message, 'broken');
  });

  it('make no child, and write nothing, for lines below the level', () => {
    const { log, lines, children } = capturedLogger('warn');
    const logger = new RequestLogger(log, { reqId: 'abc-2' });
    logger.info('quiet');
    logger.debug('quieter');
    assert.equal(lines.length, 0);
    assert.equal(children(), 0);
    assert.equal(logger.level, 'warn');
    assert.equal(logger.isLevelEnabled('info'), false);
    logger.warn('heard');
    assert.equal(children(), 1);
    logger.error('heard again');
    assert.equal(children(), 1, 'one child per request, made at its first line');
    assert.deepEqual(
      lines.map((line) => [line.msg, line.reqId]),
      [
        ['heard', 'abc-2'],
        ['heard again', 'abc-2'],
      ],
    );
  });

  it("follow a change of the app's level, and a request's own level once set", () => {
    const { log, lines } = capturedLogger('warn');
    const logger = new RequestLogger(log, { reqId: 'abc-3' });
    log.level = 'info';
    logger.info('now heard');
    assert.equal(lines.length, 1);
    logger.level = 'error';
    logger.warn('not any more');
    assert.equal(lines.length, 1);
    assert.equal(log.level, 'info', "the app's level is left alone");
  });

  it('are real children for a route with a level or serializers of its own', () => {
    const log = pino({ level: 'info' }, { write: () => {} });
    const child = requestLoggerFactory(log, { reqId: 'abc-4' }, { level: 'error' });
    assert.ok(!(child instanceof RequestLogger));
    assert.equal(child.level, 'error');
    assert.ok(requestLoggerFactory(log, { reqId: 'abc-5' }, {}) instanceof RequestLogger);
  });
});
