import type { Migration } from './migration.ts'

export const migration0004: Migration = {
  version: 4,
  name: 'personal accounts: users, their sessions, login lockouts, and who in the audit log',
  sql: `
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  usuario TEXT NOT NULL,
  nombre TEXT NOT NULL,
  rol TEXT NOT NULL CHECK (rol IN ('operador', 'supervisor', 'admin')),
  almacenes TEXT NOT NULL,
  activo INTEGER NOT NULL DEFAULT 1 CHECK (activo IN (0, 1)),
  password_hash TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT,
  last_login_at TEXT
);
CREATE UNIQUE INDEX users_usuario ON users (usuario COLLATE NOCASE);

CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  last_used_at TEXT NOT NULL,
  ip TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE login_lockouts (
  usuario_key TEXT PRIMARY KEY,
  failures INTEGER NOT NULL,
  window_start TEXT NOT NULL,
  locked_until TEXT
);

ALTER TABLE audit_log ADD COLUMN actor_usuario TEXT;
`,
}
