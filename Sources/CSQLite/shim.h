// The system's SQLite (libsqlite3-dev on Debian; in the SDK on macOS), for FlakeLab's history.
#include <sqlite3.h>
