import FlakeLab
import FlakeLabCommand

// Every command of flakelab, over this lab's scenario and executors.
LabCommandLine.main(
  catalog: try! ScenarioCatalog([counter], executors: ExecutorCatalog.standard + [DetachedExecutor()]))
