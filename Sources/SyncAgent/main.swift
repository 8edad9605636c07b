import Logging
import SyncAgentCLI
import SyncAgentDaemon

LoggingSystem.bootstrap { label in LineLogHandler(label: label) }
await SyncAgentCommand.execute()
