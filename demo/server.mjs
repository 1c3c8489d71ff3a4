#!/usr/bin/env node
// @ts-check
// The MCP server of `npm start`'s demo workspace, on the SDK's server package: four prompts a person runs
// on their own code every day. Each returns the instructions for the chat's model; the model does the work.
//   code_review     code*, language (completed), focus (completed)
//   commit_message  changes* (a diff or a few words), style (completed: conventional, plain)
//   explain         code* (the selection), audience (completed)
//   write_tests     code*; asks mid-prompt which test framework to use, offering the ones for the code's language
//   node demo/server.mjs        (stdio; serves 2026-07-28 clients and, through the SDK, 2025-era ones)
import { McpServer, acceptedContent, completable, inputRequired } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/v4';

export const LANGUAGES = ['python', 'typescript', 'javascript', 'go', 'rust', 'java', 'c#', 'shell'];
export const FOCUSES = ['bugs', 'security', 'performance', 'readability', 'error handling', 'tests'];
export const STYLES = ['conventional', 'plain'];
export const AUDIENCES = ['beginner', 'newcomer to this codebase', 'expert'];

/** Test frameworks by the language a piece of code looks like; the first match wins. */
const TEST_FRAMEWORKS = [
  {
    language: 'python',
    looksLike: /^\s*(def |class |import |from \S+ import )|print\(/m,
    choices: ['pytest', 'unittest'],
  },
  { language: 'go', looksLike: /^\s*(package |func )/m, choices: ['testing', 'testify'] },
  { language: 'rust', looksLike: /^\s*(fn |impl |use |pub )/m, choices: ['cargo test'] },
  { language: 'java', looksLike: /^\s*(public |private )?(class|interface) \w+.*\{/m, choices: ['JUnit 5', 'TestNG'] },
  {
    language: 'javascript',
    looksLike: /\b(function|const|let|=>|export|require\()/,
    choices: ['Vitest', 'Jest', 'node:test'],
  },
];
export const ALL_FRAMEWORKS = [...new Set(TEST_FRAMEWORKS.flatMap(f => f.choices))];

/** The test frameworks to offer for `code`, and the language they are for (undefined: every framework). */
export function frameworksFor(code) {
  const found = TEST_FRAMEWORKS.find(f => f.looksLike.test(code));
  return found
    ? { language: found.language, choices: found.choices }
    : { language: undefined, choices: ALL_FRAMEWORKS };
}

/**
 * An optional argument completed from `values` by prefix. The SDK looks for the completion inside the
 * optional wrapper, so the wrapper goes around the completable schema, not the other way round.
 * @param {string} description @param {readonly string[]} values
 */
const optionalFrom = (description, values) =>
  completable(z.string(), value => values.filter(v => v.toLowerCase().startsWith((value ?? '').toLowerCase())))
    .optional()
    .describe(description);

/** @param {string} text @returns {{role: 'user', content: {type: 'text', text: string}}} */
const user = text => ({ role: 'user', content: { type: 'text', text } });

/** A fenced block that no backtick run inside `text` can close early. @param {string} text @param {string} [info] */
function fenced(text, info = '') {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map(m => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${info}\n${text.replace(/\n+$/, '')}\n${fence}`;
}

/** @param {string} changes */
const looksLikeDiff = changes => /^(diff --git |--- |\+\+\+ |@@ )/m.test(changes);

/** @param {McpServer} server */
function registerCodeReview(server) {
  server.registerPrompt(
    'code_review',
    {
      title: 'Code review',
      description: 'Review code for bugs, risks and readability',
      argsSchema: z.object({
        code: z.string().describe('The code to review'),
        language: optionalFrom('Language of the code', LANGUAGES),
        focus: optionalFrom('What to look at first', FOCUSES),
      }),
    },
    ({ code, language, focus }) => ({
      description: `Code review${language ? ` of ${language}` : ''}`,
      messages: [
        user(
          `Please review this ${language ? `${language} ` : ''}code${focus ? `, looking at ${focus} first` : ''}. ` +
            'Name each problem with the line it is on, say why it matters, and suggest the change as code. ' +
            'End with what is good about it.\n\n' +
            fenced(code, language ?? ''),
        ),
      ],
    }),
  );
}

/** @param {McpServer} server */
function registerCommitMessage(server) {
  server.registerPrompt(
    'commit_message',
    {
      title: 'Commit message',
      description: 'Write a commit message from a diff or from a description of the change',
      argsSchema: z.object({
        changes: z.string().describe('The diff (git diff) or a few words on what changed and why'),
        style: optionalFrom('conventional (feat:, fix:, …) or plain', STYLES),
      }),
    },
    ({ changes, style }) => {
      const conventional = style?.toLowerCase() === 'conventional';
      const subject = conventional
        ? 'A subject line "type: summary" (type one of feat, fix, docs, refactor, test, chore), at most 50 characters, in the imperative.'
        : 'A subject line of at most 50 characters, in the imperative ("Fix …", not "Fixed …").';
      const what = looksLikeDiff(changes)
        ? `The change, as a diff:\n\n${fenced(changes, 'diff')}`
        : `The change, as its author describes it:\n\n> ${changes.replace(/\n/g, '\n> ')}`;
      return {
        description: 'Commit message',
        messages: [
          user(
            `Write a commit message for the change below.\n\n- ${subject}\n` +
              '- A blank line, then a body that says what changed and why, wrapped at 72 columns.\n' +
              `- Nothing else: no preamble, no code fence around the message.\n\n${what}`,
          ),
        ],
      };
    },
  );
}

/** @param {McpServer} server */
function registerExplain(server) {
  server.registerPrompt(
    'explain',
    {
      title: 'Explain the selection',
      description: 'Explain what a piece of code does, step by step',
      argsSchema: z.object({
        code: z.string().describe('The code to explain (the selection)'),
        audience: optionalFrom('Who the explanation is for', AUDIENCES),
      }),
    },
    ({ code, audience }) => ({
      description: 'Explain the selection',
      messages: [
        user(
          `Explain what this code does${audience ? ` to ${/^[aeiou]/i.test(audience) ? 'an' : 'a'} ${audience}` : ''}: ` +
            'first in one sentence, ' +
            'then step by step. Name anything surprising it relies on.\n\n' +
            fenced(code),
        ),
      ],
    }),
  );
}

/** @param {McpServer} server */
function registerWriteTests(server) {
  server.registerPrompt(
    'write_tests',
    {
      title: 'Write tests',
      description: 'Write unit tests for a piece of code (asks which test framework to use)',
      argsSchema: z.object({ code: z.string().describe('The code to test') }),
    },
    ({ code }, ctx) => {
      const { language, choices } = frameworksFor(code);
      const answer = ctx.mcpReq.inputResponses?.framework;
      if (!answer)
        return inputRequired({
          inputRequests: {
            framework: inputRequired.elicit({
              message: `Which test framework shall the tests use${language ? ` (the code looks like ${language})` : ''}?`,
              requestedSchema: {
                type: 'object',
                properties: { framework: { type: 'string', title: 'Test framework', enum: choices } },
                required: ['framework'],
              },
            }),
          },
        });
      const chosen = acceptedContent(ctx.mcpReq.inputResponses, 'framework')?.framework;
      // Declined or cancelled: the tests are still wanted, in whatever the project uses.
      const framework = typeof chosen === 'string' && choices.includes(chosen) ? chosen : undefined;
      return {
        description: 'Write tests',
        messages: [
          user(
            `Write unit tests ${framework ? `with ${framework}` : "with the project's test framework"} for the code ` +
              'below. Cover the usual case, the edge cases (empty, missing and very large values) and the errors ' +
              'it should raise; one behaviour per test, each named for what it checks.\n\n' +
              fenced(code, language ?? ''),
          ),
        ],
      };
    },
  );
}

export function create() {
  const server = new McpServer(
    { name: 'mcp-prompts-demo', title: 'MCP Prompts demo', version: '1.0.0' },
    { capabilities: { prompts: {}, completions: {} } },
  );
  registerCodeReview(server);
  registerCommitMessage(server);
  registerExplain(server);
  registerWriteTests(server);
  return server;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  serveStdio(create, { onerror: e => process.stderr.write(`[demo] ${e.message}\n`) });
  process.stdin.on('end', () => process.exit(0));
}
