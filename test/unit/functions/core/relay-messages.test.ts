import { MAX_WEBSOCKET_MESSAGE_BYTES } from '#core/browser-sessions';
import { closeReason, frameMessage, parseRelayMessage, shardOf } from '#core/relay-messages';

/** The relay queue's messages (core/relay-messages.ts): what the Lambda writes, the relay reads back; anything else is dropped. */
describe('relay messages', () => {
  it('reads back what the Lambda writes', () => {
    // Prepare
    const frame = frameMessage('L0SM9cOFvHcCIhw=', Buffer.from('{"op":"subscribe"}'));
    // Act
    const parsed = [
      parseRelayMessage(JSON.stringify(frame)),
      parseRelayMessage('{"v":1,"type":"open","connection_id":"abc="}'),
      parseRelayMessage('{"v":1,"type":"close","connection_id":"abc=","code":1009,"reason":"message too big","close_client":true}'),
    ];
    // Assess
    expect(parsed).toEqual([
      frame,
      { v: 1, type: 'open', connection_id: 'abc=' },
      { v: 1, type: 'close', connection_id: 'abc=', code: 1009, reason: 'message too big', close_client: true },
    ]);
  });

  it('drops another version, an unknown type, a bad connection id, a frame over 128 KB, non-JSON and __proto__ keys', () => {
    // Prepare
    const bodies = [
      '{"v":2,"type":"open","connection_id":"abc="}',
      '{"v":1,"type":"upgrade","connection_id":"abc="}',
      `{"v":1,"type":"open","connection_id":"${'a'.repeat(10_000)}"}`,
      '{"v":1,"type":"open","connection_id":"../x"}',
      JSON.stringify(frameMessage('abc=', Buffer.alloc(MAX_WEBSOCKET_MESSAGE_BYTES + 3))),
      'not json',
      'null',
      '{"__proto__":{"v":1,"type":"open","connection_id":"abc="}}',
    ];
    // Act
    const parsed = bodies.map(parseRelayMessage);
    // Assess
    expect(parsed).toEqual(bodies.map(() => undefined));
  });

  it('cuts a close reason to 123 bytes on a character boundary', () => {
    // Act
    const reason = closeReason('é'.repeat(100));
    // Assess
    expect(Buffer.byteLength(reason, 'utf8')).toBe(122);
    expect(reason).toBe('é'.repeat(61));
  });

  it('puts a connection on one shard, the same every time, and uses every shard', () => {
    // Prepare
    const ids = Array.from({ length: 200 }, (_, index) => `conn${index}=`);
    // Act
    const shards = ids.map((id) => shardOf(id, 4));
    // Assess
    expect(ids.map((id) => shardOf(id, 4))).toEqual(shards);
    expect(new Set(shards)).toEqual(new Set([0, 1, 2, 3]));
    expect(ids.map((id) => shardOf(id, 1))).toEqual(ids.map(() => 0));
  });
});
