// The secret store of the tests that run the core without VS Code (integration tests, the conformance
// client): in memory, and like vscode.SecretStorage, one store that every window of the test shares and
// whose changes each of them hears.
import { Emitter } from '../src/core/events';
import type { SecretStore } from '../src/core/protocol/transport/oauth';

export class MemorySecrets implements SecretStore {
  readonly map = new Map<string, string>();
  private readonly changes = new Emitter<{ key: string }>();
  readonly onDidChange = this.changes.event;
  async get(key: string) {
    return this.map.get(key);
  }
  async store(key: string, value: string) {
    this.map.set(key, value);
    this.changes.fire({ key });
  }
  async delete(key: string) {
    if (this.map.delete(key)) this.changes.fire({ key });
  }
}
