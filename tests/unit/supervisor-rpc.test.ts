import { describe, expect, it } from 'vitest';
import { parseProcessInfo } from '../../features/supervisor/rpcStatus';

/**
 * supervisord's `getAllProcessInfo` answer, written by Python's xmlrpc module as supervisord
 * writes it (`xmlrpc.client.dumps(..., methodresponse=True)`), read into the panel's states.
 */
const ANSWER = `<?xml version='1.0'?>
<methodResponse>
<params>
<param>
<value><array><data>
<value><struct>
<member>
<name>name</name>
<value><string>stackdeck-web_00</string></value>
</member>
<member>
<name>group</name>
<value><string>stackdeck-web</string></value>
</member>
<member>
<name>start</name>
<value><int>100</int></value>
</member>
<member>
<name>stop</name>
<value><int>0</int></value>
</member>
<member>
<name>now</name>
<value><int>165</int></value>
</member>
<member>
<name>state</name>
<value><int>20</int></value>
</member>
<member>
<name>statename</name>
<value><string>RUNNING</string></value>
</member>
<member>
<name>spawnerr</name>
<value><string></string></value>
</member>
<member>
<name>exitstatus</name>
<value><int>0</int></value>
</member>
<member>
<name>logfile</name>
<value><string>/x</string></value>
</member>
<member>
<name>pid</name>
<value><int>12</int></value>
</member>
<member>
<name>description</name>
<value><string>pid 12, uptime 0:01:05</string></value>
</member>
</struct></value>
<value><struct>
<member>
<name>name</name>
<value><string>other</string></value>
</member>
<member>
<name>group</name>
<value><string>other</string></value>
</member>
<member>
<name>start</name>
<value><int>0</int></value>
</member>
<member>
<name>stop</name>
<value><int>0</int></value>
</member>
<member>
<name>now</name>
<value><int>165</int></value>
</member>
<member>
<name>state</name>
<value><int>0</int></value>
</member>
<member>
<name>statename</name>
<value><string>STOPPED</string></value>
</member>
<member>
<name>spawnerr</name>
<value><string></string></value>
</member>
<member>
<name>exitstatus</name>
<value><int>0</int></value>
</member>
<member>
<name>logfile</name>
<value><string></string></value>
</member>
<member>
<name>pid</name>
<value><int>0</int></value>
</member>
<member>
<name>description</name>
<value><string>Not started</string></value>
</member>
</struct></value>
<value><struct>
<member>
<name>name</name>
<value><string>stackdeck-q_01</string></value>
</member>
<member>
<name>group</name>
<value><string>stackdeck-q</string></value>
</member>
<member>
<name>start</name>
<value><int>0</int></value>
</member>
<member>
<name>stop</name>
<value><int>0</int></value>
</member>
<member>
<name>now</name>
<value><int>165</int></value>
</member>
<member>
<name>state</name>
<value><int>200</int></value>
</member>
<member>
<name>statename</name>
<value><string>FATAL</string></value>
</member>
<member>
<name>spawnerr</name>
<value><string></string></value>
</member>
<member>
<name>exitstatus</name>
<value><int>1</int></value>
</member>
<member>
<name>logfile</name>
<value><string></string></value>
</member>
<member>
<name>pid</name>
<value><int>0</int></value>
</member>
<member>
<name>description</name>
<value><string>Exited too quickly (process log may have details) &amp; &lt;x&gt;</string></value>
</member>
</struct></value>
</data></array></value>
</param>
</params>
</methodResponse>`;

describe("supervisord's process info", () => {
  it("reads the panel's programs only, with uptime while running and the reason otherwise", () => {
    expect(parseProcessInfo(ANSWER)).toEqual([
      { name: 'web', process: 'web_00', state: 'RUNNING', pid: 12, uptime: 65, description: '' },
      {
        name: 'q',
        process: 'q_01',
        state: 'FATAL',
        pid: null,
        uptime: null,
        description: 'Exited too quickly (process log may have details) & <x>',
      },
    ]);
  });

  it('says a fault rather than an empty list', () => {
    expect(() =>
      parseProcessInfo(
        "<?xml version='1.0'?><methodResponse><fault><value><struct></struct></value></fault></methodResponse>",
      ),
    ).toThrow(/fault/);
  });
});
