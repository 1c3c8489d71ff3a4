// What a Windows or macOS user gets, run on Linux through an injected platform (src/core/platform.ts):
// variables, the Restricted Mode rule on envFile paths, how a stdio server starts, where other clients'
// files and the CLI's cache are, `#file:` paths, Windows paths through the invocation rule, and how a
// process tree is ended. docs/platforms.md points here for each claim.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfigObject } from '../../src/core/config/config';
import { substituteVariables } from '../../src/core/config/substitute-variables';
import { EMPTY_MCP_JSON, withServers } from '../../src/core/config/config-text';
import {
  chosenPlace,
  claudeProjects,
  discoveryFiles,
  placesOf,
  projectKey,
} from '../../src/core/config/config-locations';
import { DEFAULT_INHERITED_ENV_VARS } from '@modelcontextprotocol/client/stdio';
import { envFileInWorkspace, planServers } from '../../src/core/config/server-merge';
import {
  commandCandidates,
  inheritedNames,
  serverEnvironment,
  stdioLaunch,
  stdioStart,
  type FileKind,
} from '../../src/core/config/stdio-launch';
import { envValue, expandHome, mergeEnv, platformOf } from '../../src/core/platform';
import { toPromptError } from '../../src/core/errors';
import { silentLog } from '../../src/core/log';
import { createStdioTransport } from '../../src/core/protocol/transport/transports';
import path from 'node:path';
import { descendantsOf, treeStopPlan } from '../../src/core/process-tree';
import { cacheFolder } from '../../src/cli/era-cache';
import { commandShell, commandStop, shellScript } from '../../src/core/run/requests/command-output';
import { fileTarget, planReferences } from '../../src/core/run/requests/chat-request';
import { formatInvocation, parseInvocation } from '../../src/core/run/invocation';

const windows = (env: Record<string, string> = {}) => platformOf('win32', env, 'C:\\Users\\u');
const mac = (env: Record<string, string> = {}) => platformOf('darwin', env, '/Users/u');
const linux = (env: Record<string, string> = {}) => platformOf('linux', env, '/home/u');

/** The strings of one stdio entry after substitution on `platform`. */
async function substituted(entry: Record<string, unknown>, platform: ReturnType<typeof linux>, folder?: string) {
  const [def] = parseConfigObject({ servers: { s: { type: 'stdio', ...entry } } }, 'workspace').servers;
  const out = await substituteVariables(def, { workspaceFolder: folder, platform }, []);
  assert.ok(out.transport.type === 'stdio');
  return out.transport;
}

test('${env:NAME} ignores case on Windows (as VS Code does there) and nowhere else; names may hold parentheses', async () => {
  const env = { Path: 'C:\\bin', 'ProgramFiles(x86)': 'C:\\Program Files (x86)', HOME: '/h' };
  const entry = { command: 'srv', args: ['${env:PATH}', '${env:programfiles(x86)}', '${env:home}'] };
  assert.deepEqual((await substituted(entry, windows(env))).args, ['C:\\bin', 'C:\\Program Files (x86)', '/h']);
  assert.deepEqual((await substituted(entry, linux(env))).args, ['', '', '']);
  assert.deepEqual((await substituted(entry, mac(env))).args, ['', '', '']);
  assert.equal(envValue(windows({ SystemRoot: 'C:\\Windows' }), 'SYSTEMROOT'), 'C:\\Windows');
  assert.equal(envValue(linux({ SystemRoot: 'x' }), 'SYSTEMROOT'), undefined);
});

test('${pathSeparator} and ${/} are the platform separator; ${workspaceFolder} has an upper-case drive on Windows', async () => {
  const entry = {
    command: 'srv',
    args: ['${workspaceFolder}${/}a', '${userHome}${pathSeparator}b'],
    cwd: '${userHome}',
  };
  const win = await substituted(entry, windows(), 'c:\\ws');
  assert.deepEqual(win.args, ['C:\\ws\\a', 'C:\\Users\\u\\b']);
  assert.equal(win.cwd, 'C:\\Users\\u');
  assert.deepEqual((await substituted(entry, mac(), '/Users/u/ws')).args, ['/Users/u/ws/a', '/Users/u/b']);
  assert.deepEqual((await substituted(entry, linux(), '/ws')).args, ['/ws/a', '/home/u/b']);
  // Without a folder the variable stays as written, as VS Code leaves what it cannot resolve.
  assert.deepEqual((await substituted(entry, linux())).args, ['${workspaceFolder}/a', '/home/u/b']);
});

test('your own servers run from your home folder on every platform, trusted or not: a relative cwd and envFile lie there; only ${workspaceFolder} reads the workspace', () => {
  const config = parseConfigObject(
    {
      servers: {
        s: { command: 'srv', cwd: 'sub', envFile: '.env' },
        viaFolder: { command: 'srv', envFile: '${workspaceFolder}\\.env' },
      },
    },
    'user',
  );
  const cases: [ReturnType<typeof linux>, string, string][] = [
    [windows(), 'C:\\Users\\u\\sub', 'C:\\Users\\u\\.env'],
    [mac(), '/Users/u/sub', '/Users/u/.env'],
    [linux(), '/home/u/sub', '/home/u/.env'],
  ];
  for (const [platform, cwd, envFile] of cases)
    for (const trusted of [false, true]) {
      const plan = planServers([{ kind: 'user', label: 'user settings', config }], { trusted, platform });
      const [s] = plan.run;
      assert.equal(s.def.defaultCwd, platform.home, `${platform.os}, trusted: ${trusted}`);
      assert.ok(s.def.transport.type === 'stdio');
      const launch = stdioLaunch(s.def.transport, s.def.defaultCwd, platform);
      assert.deepEqual([launch.cwd, launch.envFile], [cwd, envFile]);
      assert.deepEqual(
        plan.held.map(h => [h.def.name, h.reason]),
        trusted ? [] : [['viaFolder', 'envFile']],
      );
    }
  assert.equal(envFileInWorkspace('${workspaceFolder}/.env'), true);
  assert.equal(envFileInWorkspace('.env'), false);
});

test('a stdio server starts as VS Code starts it: ~ is home, a relative cwd and envFile lie under the default folder', () => {
  const entry = {
    type: 'stdio' as const,
    command: '~\\bin\\srv.exe',
    args: ['~/data', 'a~b'],
    env: {},
    cwd: 'sub',
    envFile: '.env',
  };
  assert.deepEqual(stdioLaunch(entry, 'C:\\ws', windows()), {
    command: 'C:\\Users\\u\\bin\\srv.exe',
    args: ['C:\\Users\\u/data', 'a~b'],
    cwd: 'C:\\ws\\sub',
    envFile: 'C:\\ws\\.env',
  });
  assert.deepEqual(stdioLaunch({ ...entry, command: '~/bin/srv', cwd: '~/srv' }, '/Users/u/ws', mac()), {
    command: '/Users/u/bin/srv',
    args: ['/Users/u/data', 'a~b'],
    cwd: '/Users/u/srv',
    envFile: '/Users/u/ws/.env',
  });
  // `~\` is a file name on Linux, not the home folder; with no folder at all the server runs from home.
  const plain = { type: 'stdio' as const, command: '~\\srv', args: [], env: {} };
  assert.deepEqual(stdioLaunch(plain, undefined, linux()), {
    command: '~\\srv',
    args: [],
    cwd: '/home/u',
    envFile: undefined,
  });
  assert.equal(stdioLaunch({ ...plain, envFile: '~/.env' }, '/ws', linux()).envFile, '/home/u/.env');
  assert.equal(stdioLaunch({ ...plain, envFile: '~\\.env' }, 'C:\\ws', windows()).envFile, 'C:\\Users\\u\\.env');
  assert.equal(expandHome(windows(), '~'), 'C:\\Users\\u');
  assert.equal(expandHome(windows(), '~user\\x'), '~user\\x');
});

test('Windows environments merge by name whatever its case, so an entry’s Path replaces the inherited PATH', () => {
  const inherited = ['PATH', 'PATHEXT', 'SYSTEMROOT'];
  assert.deepEqual(mergeEnv(windows(), [{ path: 'C:\\from-file' }, { Path: 'C:\\tools', Token: 't' }], inherited), {
    PATH: 'C:\\tools',
    Token: 't',
  });
  assert.deepEqual(mergeEnv(windows(), [{ token: 'a' }, { TOKEN: 'b' }]), { TOKEN: 'b' });
  // Elsewhere names are exact: both stay.
  assert.deepEqual(mergeEnv(linux(), [{ path: 'a' }, { Path: 'b' }], inherited), { path: 'a', Path: 'b' });
});

test("a server's environment: the SDK's defaults, proxies, CA certificates, locale and SSH agent, then envFile, then env, whose PATH is appended", () => {
  const host = {
    Path: 'C:\\Windows;C:\\nodejs',
    PATHEXT: '.COM;.EXE;.CMD',
    SystemRoot: 'C:\\Windows',
    HTTPS_PROXY: 'http://proxy:8080',
    no_proxy: 'localhost',
    NODE_EXTRA_CA_CERTS: 'C:\\certs\\corp.pem',
    LANG: 'de_DE.UTF-8',
    SSH_AUTH_SOCK: '\\\\.\\pipe\\openssh-ssh-agent',
    GITHUB_TOKEN: 'not passed',
    FUNC: '() { evil; }',
  };
  assert.deepEqual(
    serverEnvironment(windows(host), { path: 'C:\\from-file;C:\\bin' }, { Path: 'C:\\tools', Token: 't' }),
    {
      PATH: 'C:\\from-file;C:\\bin;C:\\tools',
      PATHEXT: '.COM;.EXE;.CMD',
      SYSTEMROOT: 'C:\\Windows',
      HTTPS_PROXY: 'http://proxy:8080',
      NO_PROXY: 'localhost',
      NODE_EXTRA_CA_CERTS: 'C:\\certs\\corp.pem',
      LANG: 'de_DE.UTF-8',
      SSH_AUTH_SOCK: '\\\\.\\pipe\\openssh-ssh-agent',
      Token: 't',
      // Neither cmd.exe nor the server looks for a bare program name in its working folder.
      NoDefaultCurrentDirectoryInExePath: '1',
    },
  );
  // An entry cannot turn that off, whatever its spelling.
  assert.equal(
    serverEnvironment(windows(), {}, { nodefaultcurrentdirectoryinexepath: '' }).NoDefaultCurrentDirectoryInExePath,
    '1',
  );
  const unix = {
    PATH: '/usr/bin:/bin',
    HOME: '/home/u',
    https_proxy: 'http://proxy:3128',
    HTTPS_PROXY: 'http://other:3128',
    SSL_CERT_FILE: '/etc/ssl/corp.pem',
    SSL_CERT_DIR: '/etc/ssl/certs',
    LC_ALL: 'C.UTF-8',
    LC_CTYPE: 'C.UTF-8',
    lc_foo: 'not a locale variable',
    SSH_AUTH_SOCK: '/run/user/1000/ssh-agent',
    BASH_FUNC: '() { evil; }',
    SECRET: 'not passed',
  };
  // Not passed: a name that is no locale variable, an exported shell function, anything else of yours.
  const { lc_foo: _notLocale, BASH_FUNC: _function, SECRET: _secret, ...passed } = unix;
  for (const platform of [linux(unix), mac(unix)])
    assert.deepEqual(serverEnvironment(platform, {}, { PATH: '/opt/tool/bin', Path: 'kept as it is' }), {
      ...passed,
      PATH: '/usr/bin:/bin:/opt/tool/bin',
      Path: 'kept as it is',
    });
  // No inherited PATH: the entry's is the whole of it; an empty one adds nothing.
  assert.equal(serverEnvironment(linux(), {}, { PATH: '/opt/bin' }).PATH, '/opt/bin');
  assert.equal(serverEnvironment(linux({ PATH: '/usr/bin' }), {}, { PATH: '' }).PATH, '/usr/bin');
});

test('the inherited names hold every name of the SDK’s safe defaults on this platform', () => {
  const names = inheritedNames(platformOf(process.platform, {}, '/h'));
  assert.deepEqual(
    DEFAULT_INHERITED_ENV_VARS.filter(n => !names.includes(n)),
    [],
  );
});

test('a bare command is looked up in PATH only, never in the working folder; Windows adds PATHEXT', () => {
  const env = { Path: 'C:\\nodejs;"C:\\Program Files\\tool";.;;node_modules\\.bin', PATHEXT: '.EXE;.CMD' };
  // Before: C:\ws\npx.EXE and C:\ws\npx.CMD came first, so a repository's npx.cmd ran in place of yours.
  assert.deepEqual(commandCandidates({ command: 'npx', cwd: 'C:\\ws' }, env, windows()), [
    'C:\\nodejs\\npx.EXE',
    'C:\\nodejs\\npx.CMD',
    'C:\\Program Files\\tool\\npx.EXE',
    'C:\\Program Files\\tool\\npx.CMD',
  ]);
  assert.deepEqual(commandCandidates({ command: 'npx.cmd', cwd: 'C:\\ws' }, env, windows()).slice(0, 3), [
    'C:\\nodejs\\npx.cmd',
    'C:\\nodejs\\npx.cmd.EXE',
    'C:\\nodejs\\npx.cmd.CMD',
  ]);
  // A command with a folder is looked up there only; PATHEXT unset is Windows' own default.
  assert.deepEqual(commandCandidates({ command: 'bin\\srv', cwd: 'C:\\ws' }, {}, windows()), [
    'C:\\ws\\bin\\srv.COM',
    'C:\\ws\\bin\\srv.EXE',
    'C:\\ws\\bin\\srv.BAT',
    'C:\\ws\\bin\\srv.CMD',
  ]);
  // Elsewhere too: `.` and an empty entry (the working folder to execvp) are skipped.
  for (const platform of [linux(), mac()]) {
    const withDot = { PATH: '.::/usr/local/bin:bin:/usr/bin' };
    assert.deepEqual(commandCandidates({ command: 'npx', cwd: '/ws' }, withDot, platform), [
      '/usr/local/bin/npx',
      '/usr/bin/npx',
    ]);
    assert.deepEqual(commandCandidates({ command: './bin/srv', cwd: '/ws' }, withDot, platform), ['/ws/bin/srv']);
  }
});

test('the process a server is on Windows: the program PATH names, a .exe as it is, a .cmd through cmd.exe with every argument quoted', () => {
  // Windows file names ignore case.
  const files = new Set(['c:\\ws\\npx.cmd', 'c:\\ws\\node.exe', 'c:\\nodejs\\npx.cmd', 'c:\\nodejs\\node.exe']);
  const kind = (f: string): FileKind => (files.has(f.toLowerCase()) ? 'file' : 'none');
  const platform = windows({ SystemRoot: 'D:\\Win' });
  const env = serverEnvironment(platform, {}, { PATH: 'C:\\nodejs' });
  const launch = (command: string, args: string[], cwd = 'C:\\ws') =>
    stdioStart({ command, args, cwd }, env, platform, kind);
  // The repository's node.exe and npx.cmd are in the working folder; yours are in PATH.
  assert.deepEqual(launch('node', ['server.js', 'a b']), {
    file: 'C:\\nodejs\\node.EXE',
    args: ['server.js', 'a b'],
    cwd: 'C:\\ws',
    env,
    verbatim: false,
  });
  assert.deepEqual(launch('npx', ['-y', '{"q":"a&b"}', '50%']), {
    file: 'D:\\Win\\System32\\cmd.exe',
    args: ['/d', '/e:ON', '/v:OFF', '/s', '/c', '""C:\\nodejs\\npx.CMD" "-y" "{""q"":""a&b""}" "50%%cd:~,%""'],
    cwd: 'C:\\ws',
    env,
    verbatim: true,
  });
  assert.equal(env.PATH, 'C:\\nodejs');
  assert.equal(env.NoDefaultCurrentDirectoryInExePath, '1');
  // A path you wrote is yours to choose.
  assert.equal(launch('.\\node.exe', []).file, 'C:\\ws\\node.exe');
  const failure = (f: () => unknown) => {
    try {
      f();
    } catch (err) {
      return err as { code: string; path?: string; index?: number; program?: string };
    }
    return assert.fail('expected a refusal');
  };
  assert.deepEqual(
    failure(() => launch('uvx', [])),
    Object.assign(new Error('spawn uvx ENOENT'), { code: 'ENOENT', path: 'uvx' }),
  );
  // cmd.exe cannot pass a line break, and would run a batch file on a network folder from C:\Windows.
  assert.equal(failure(() => launch('npx', ['-y', 'pkg', 'line\nrm -rf'])).index, 3);
  assert.equal(failure(() => launch('npx', ['nul\0'])).code, 'BATCH_ARGUMENT');
  const unc = failure(() => launch('npx', [], '\\\\wsl.localhost\\Ubuntu\\home\\u\\proj'));
  assert.deepEqual(
    [unc.code, unc.path, unc.program],
    ['UNC_CWD', '\\\\wsl.localhost\\Ubuntu\\home\\u\\proj', 'C:\\nodejs\\npx.CMD'],
  );
  // Each says so naming the server, before anything starts.
  assert.equal(
    toPromptError(unc, 'wsl', 'listing prompts').message,
    'wsl could not start: cmd.exe, which runs C:\\nodejs\\npx.CMD, cannot work in the network folder \\\\wsl.localhost\\Ubuntu\\home\\u\\proj; set its "cwd" to a folder on a drive',
  );
  assert.equal(
    toPromptError(
      failure(() => launch('npx', ['a', 'b\r\nc'])),
      'npx',
      'listing prompts',
    ).message,
    'npx could not start: argument 2 holds a line break or NUL character, which cmd.exe cannot pass to C:\\nodejs\\npx.CMD',
  );
  // A .exe needs no cmd.exe: a network folder and a line break are fine.
  assert.equal(launch('node', ['a\nb'], '\\\\server\\share').file, 'C:\\nodejs\\node.EXE');
});

test('the process a server is on macOS and Linux: a program of PATH (executable), or the path you wrote as it is', () => {
  const kinds: Record<string, FileKind> = {
    '/ws/npx': 'program',
    '/usr/local/bin/npx': 'file',
    '/usr/bin/npx': 'program',
    '/ws/bin/srv': 'file',
  };
  const kind = (f: string) => kinds[f] ?? 'none';
  for (const platform of [linux(), mac()]) {
    const env = serverEnvironment(platform, {}, { PATH: '.:/usr/local/bin:/usr/bin' });
    const start = (command: string) => stdioStart({ command, args: ['a&b'], cwd: '/ws' }, env, platform, kind);
    assert.deepEqual(start('npx'), { file: '/usr/bin/npx', args: ['a&b'], cwd: '/ws', env, verbatim: false });
    assert.equal(start('bin/srv').file, '/ws/bin/srv');
    assert.throws(() => start('uvx'), { code: 'ENOENT', path: 'uvx' });
  }
});

test('the stdio transport starts what the injected platform says: its PATH, its environment, its lookup rules', () => {
  const bin = path.dirname(process.execPath);
  const entry = { type: 'stdio' as const, command: 'node', args: ['-v'], env: {} };
  const transport = createStdioTransport(entry, silentLog, linux({ PATH: bin, HTTPS_PROXY: 'http://proxy:1' }), '/');
  const params = (transport as unknown as { _serverParams: { command: string; env: Record<string, string> } })
    ._serverParams;
  assert.equal(params.command, path.join(bin, 'node'));
  assert.equal(params.env.HTTPS_PROXY, 'http://proxy:1');
  // Looked up as Windows looks (PATHEXT, a Windows PATH), `sh` is nowhere: the host's own rules would find it.
  assert.throws(
    () => createStdioTransport({ ...entry, command: 'sh' }, silentLog, windows({ PATH: 'C:\\bin' }), 'C:\\ws'),
    {
      code: 'ENOENT',
      path: 'sh',
    },
  );
});

test("Claude Desktop's file: the MSIX package's first on Windows, then the classic one; macOS and Linux folders", () => {
  const on = { claudeDesktop: true, claudeCode: false, cursor: false, windsurf: false };
  const win = discoveryFiles(
    { platform: windows({ LocalAppData: 'D:\\Local', APPDATA: 'D:\\Roaming' }), folders: [] },
    on,
  );
  assert.deepEqual(
    win.map(f => [f.path, ...(f.fallbacks ?? [])]),
    [
      [
        'D:\\Local\\Packages\\Claude_pzs8sxrjxfjjc\\LocalCache\\Roaming\\Claude\\claude_desktop_config.json',
        'D:\\Roaming\\Claude\\claude_desktop_config.json',
      ],
    ],
  );
  assert.deepEqual(
    discoveryFiles({ platform: mac(), folders: [] }, on).map(f => [f.path, f.fallbacks]),
    [['/Users/u/Library/Application Support/Claude/claude_desktop_config.json', undefined]],
  );
  assert.deepEqual(
    discoveryFiles({ platform: linux({ XDG_CONFIG_HOME: '/cfg' }), folders: [] }, on).map(f => f.path),
    ['/cfg/Claude/claude_desktop_config.json'],
  );
  const everyOn = { claudeDesktop: false, claudeCode: true, cursor: true, windsurf: true };
  assert.deepEqual(
    discoveryFiles({ platform: windows(), folders: ['c:\\ws'] }, everyOn).map(f => f.path),
    [
      'C:\\Users\\u\\.claude.json',
      'C:\\Users\\u\\.cursor\\mcp.json',
      'c:\\ws\\.cursor\\mcp.json',
      'C:\\Users\\u\\.codeium\\windsurf\\mcp_config.json',
    ],
  );
});

test('Claude Desktop on Windows: the MSIX file when it exists, else the classic one, else the MSIX place; both are watched', async () => {
  const on = { claudeDesktop: true, claudeCode: false, cursor: false, windsurf: false };
  const [file] = discoveryFiles(
    { platform: windows({ LOCALAPPDATA: 'D:\\Local', APPDATA: 'D:\\Roaming' }), folders: [] },
    on,
  );
  const msix = 'D:\\Local\\Packages\\Claude_pzs8sxrjxfjjc\\LocalCache\\Roaming\\Claude\\claude_desktop_config.json';
  const classic = 'D:\\Roaming\\Claude\\claude_desktop_config.json';
  const checked: string[] = [];
  const present =
    (...files: string[]) =>
    async (p: string) => {
      checked.push(p);
      return files.includes(p);
    };
  // Discovery reads, and Import offers, the place chosenPlace gives, with the same file check.
  assert.equal(await chosenPlace(file, present(msix, classic)), msix);
  assert.equal(await chosenPlace(file, present(classic)), classic);
  assert.equal(await chosenPlace(file, present(msix)), msix);
  // Neither: the MSIX place, where the Store app writes it; the classic place is watched too.
  checked.length = 0;
  assert.equal(await chosenPlace(file, present()), msix);
  assert.deepEqual(checked, [msix, classic]);
  assert.deepEqual(placesOf(file), [msix, classic]);
  // macOS and Linux have one place, read whether or not it is there yet.
  for (const platform of [mac(), linux()]) {
    const [only] = discoveryFiles({ platform, folders: [] }, on);
    assert.deepEqual(placesOf(only), [only.path]);
    assert.equal(await chosenPlace(only, present()), only.path);
  }
});

test("Claude Code's project keys match the open folder however Windows and macOS spell it", () => {
  const claudeJson = {
    projects: {
      'C:/Users/u/ws': { mcpServers: { a: { command: 'a' } }, disabledMcpjsonServers: ['off1'] },
      'c:/users/u/ws/': { mcpServers: { b: { command: 'b' } }, disabledMcpjsonServers: ['off2'] },
      '/Users/u/Proj': { mcpServers: { m: { command: 'm' } } },
      '/home/u/ws': { mcpServers: { l: { command: 'l' } } },
    },
  };
  assert.deepEqual(claudeProjects(claudeJson, { platform: windows(), folders: ['c:\\Users\\u\\ws'] }), [
    {
      folder: 'c:\\Users\\u\\ws',
      mcpServers: { a: { command: 'a' }, b: { command: 'b' } },
      disabledMcpjson: ['off1', 'off2'],
    },
  ]);
  assert.deepEqual(
    claudeProjects(claudeJson, { platform: mac(), folders: ['/Users/u/proj'] }).map(p => Object.keys(p.mcpServers)),
    [['m']],
  );
  // Linux file names are exact.
  assert.deepEqual(
    claudeProjects(claudeJson, { platform: linux(), folders: ['/home/u/WS', '/home/u/ws/'] }).map(p => p.folder),
    ['/home/u/ws/'],
  );
  assert.equal(projectKey('C:\\', windows()), 'c:/');
  assert.equal(projectKey('/', linux()), '/');
});

test("the CLI's cache folder: %LOCALAPPDATA%, ~/Library/Caches, ~/.cache, or $XDG_CACHE_HOME when it is a full path", () => {
  assert.equal(cacheFolder(windows({ LOCALAPPDATA: 'D:\\Local' })), 'D:\\Local\\mcp-prompts');
  assert.equal(cacheFolder(windows()), 'C:\\Users\\u\\AppData\\Local\\mcp-prompts');
  assert.equal(cacheFolder(windows({ XDG_CACHE_HOME: 'D:\\cache' })), 'D:\\cache\\mcp-prompts');
  assert.equal(cacheFolder(mac()), '/Users/u/Library/Caches/mcp-prompts');
  assert.equal(cacheFolder(linux()), '/home/u/.cache/mcp-prompts');
  assert.equal(cacheFolder(linux({ XDG_CACHE_HOME: '/c' })), '/c/mcp-prompts');
  assert.equal(cacheFolder(linux({ XDG_CACHE_HOME: 'relative' })), '/home/u/.cache/mcp-prompts');
});

test('#file: paths with drive letters and UNC shares are full paths on Windows; backslashes separate folders there only', () => {
  assert.deepEqual(fileTarget('C:\\src\\x.py', windows()), { absolute: 'C:\\src\\x.py' });
  assert.deepEqual(fileTarget('c:/src/x.py', windows()), { absolute: 'c:/src/x.py' });
  assert.deepEqual(fileTarget('\\\\server\\share\\x.py', windows()), { absolute: '\\\\server\\share\\x.py' });
  assert.deepEqual(fileTarget('src\\lib/./a.ts', windows()), { relative: ['src', 'lib', 'a.ts'] });
  assert.deepEqual(fileTarget('/home/u/a.ts', linux()), { absolute: '/home/u/a.ts' });
  assert.deepEqual(fileTarget('src\\a.ts', linux()), { relative: ['src\\a.ts'] });
  assert.deepEqual(fileTarget('C:\\src\\x.py', mac()), { relative: ['C:\\src\\x.py'] });
  // The prompt keeps them whole, lines included.
  const prompt = '/review code=#file:C:\\src\\x.py:3-5 #file:\\\\server\\share\\notes.md';
  const plan = planReferences(prompt, []);
  assert.deepEqual(plan.named[0].ref.source, { kind: 'file', path: 'C:\\src\\x.py', lines: [3, 5] });
  assert.deepEqual(plan.unnamed[0].source, { kind: 'file', path: '\\\\server\\share\\notes.md' });
});

test('Windows paths round-trip through the invocation rule: spaces, trailing backslashes, UNC, quotes', () => {
  const values = [
    'C:\\Program Files\\tool\\',
    'C:\\new folder',
    '\\\\server\\share\\dir with space\\',
    'C:\\a"b\\',
    'C:\\x\\\\',
    'c:/forward/slashes',
    '"C:\\quoted"',
    '\\',
  ];
  for (const value of values) {
    const line = formatInvocation('x.echo', { path: value });
    assert.deepEqual(parseInvocation(line)?.named, { path: value }, line);
  }
  assert.equal(
    formatInvocation('x.echo', { path: 'C:\\Program Files\\tool\\' }),
    'x.echo path="C:\\Program Files\\tool\\\\"',
  );
  assert.equal(formatInvocation('x.echo', { path: 'C:\\src\\x.py' }), 'x.echo path=C:\\src\\x.py');
});

test('ending a process tree: taskkill /T /F from the system folder on Windows, ps and signals on macOS and Linux', () => {
  assert.deepEqual(treeStopPlan(windows({ SYSTEMROOT: 'D:\\Win' }), 42), {
    kind: 'taskkill',
    run: { command: 'D:\\Win\\System32\\taskkill.exe', args: ['/pid', '42', '/T', '/F'] },
  });
  assert.deepEqual(treeStopPlan(windows(), 7), {
    kind: 'taskkill',
    run: { command: 'C:\\Windows\\System32\\taskkill.exe', args: ['/pid', '7', '/T', '/F'] },
  });
  for (const platform of [mac(), linux()])
    assert.deepEqual(treeStopPlan(platform, 42), {
      kind: 'signals',
      list: { command: 'ps', args: ['-A', '-o', 'pid=', '-o', 'ppid='] },
    });
  // A wrapper (10) started the server (11), which started a helper (12); 13 is someone else's.
  const ps = '    1     0\n   10  9\n 11 10\n12 11\n13 1\n garbage\n';
  assert.deepEqual(descendantsOf(ps, 10), [11, 12]);
  assert.deepEqual(descendantsOf(ps, 12), []);
});

test('Output of a command: cmd.exe (or %ComSpec%) in UTF-8 and taskkill while it lives on Windows; /bin/sh and its process group elsewhere', () => {
  const cmd = commandShell(windows({ ComSpec: 'C:\\WINDOWS\\system32\\cmd.exe', SystemRoot: 'D:\\Win' }));
  assert.deepEqual(cmd, {
    shell: 'C:\\WINDOWS\\system32\\cmd.exe',
    name: 'C:\\WINDOWS\\system32\\cmd.exe (code page 65001, UTF-8)',
    group: false,
    prelude: { command: 'D:\\Win\\System32\\chcp.com', args: ['65001'] },
  });
  // cmd.exe's own commands write UTF-8: chcp runs first, from the system folder (not one the workspace
  // could put there), silently; the command follows as typed and its exit code is the run's.
  assert.equal(
    shellScript(cmd, 'dir /b & type "a b.txt"'),
    '"D:\\Win\\System32\\chcp.com" 65001 >nul 2>nul & dir /b & type "a b.txt"',
  );
  assert.deepEqual(commandShell(windows()), {
    shell: 'cmd.exe',
    name: 'cmd.exe (code page 65001, UTF-8)',
    group: false,
    prelude: { command: 'C:\\Windows\\System32\\chcp.com', args: ['65001'] },
  });
  // A %ComSpec% that is not cmd.exe is run as Node runs it (`-c`), and given the command alone.
  const other = commandShell(windows({ COMSPEC: 'C:\\tools\\tcc.exe' }));
  assert.deepEqual(other, { shell: 'C:\\tools\\tcc.exe', name: 'C:\\tools\\tcc.exe', group: false });
  assert.equal(shellScript(other, 'dir'), 'dir');
  for (const platform of [mac(), linux()]) {
    const sh = commandShell(platform);
    assert.deepEqual(sh, { shell: '/bin/sh', name: '/bin/sh', group: true });
    assert.equal(shellScript(sh, 'git diff --stat'), 'git diff --stat');
  }
  assert.deepEqual(commandStop(windows(), 42, 'SIGTERM', true), {
    kind: 'taskkill',
    run: { command: 'C:\\Windows\\System32\\taskkill.exe', args: ['/pid', '42', '/T', '/F'] },
  });
  // Once the shell has exited its pid may belong to another process: nothing is killed by it.
  assert.equal(commandStop(windows(), 42, 'SIGKILL', false), undefined);
  assert.deepEqual(commandStop(linux(), 42, 'SIGKILL', false), { kind: 'group', pid: 42, signal: 'SIGKILL' });
  assert.deepEqual(commandStop(mac(), 42, 'SIGTERM', true), { kind: 'group', pid: 42, signal: 'SIGTERM' });
});

test('Add Server and Import keep the line endings of an mcp.json written on Windows (CRLF), and its indentation', () => {
  const crlf = '{\r\n  // mine\r\n  "servers": {\r\n    "a": { "command": "a" }\r\n  }\r\n}\r\n';
  const out = withServers(crlf, { a: { command: 'b' } }, [{ id: 'tok', type: 'promptString', password: true }]);
  assert.equal(out.replace(/\r\n/g, '').includes('\n'), false, `a bare LF in ${JSON.stringify(out)}`);
  assert.match(out, /\r\n {4}"a-2": \{\r\n {6}"command": "b"\r\n {4}\}/);
  assert.match(out, /\/\/ mine\r\n/);
  const lf = withServers(EMPTY_MCP_JSON, { a: { command: 'a' } });
  assert.equal(lf.includes('\r'), false);
  assert.match(lf, /\n\t\t"a": \{\n\t\t\t"command": "a"\n\t\t\}/);
});
