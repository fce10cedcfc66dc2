import FlakeLabCommand
import Scenarios

LabCommandLine.main(catalog: .standard)
