import FlakeLabHistoryCommands
import Scenarios

HistoryLab.main(catalog: .standard, workerExecutable: "flakelab-worker")
