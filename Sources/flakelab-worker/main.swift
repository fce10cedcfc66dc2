import FlakeLabCommand
import Scenarios

// `flakelab`'s workers (`flakelab-worker worker …`): the lab without its history, which links
// SQLite. Run by hand, it is that lab.
LabCommandLine.main(catalog: .standard)
